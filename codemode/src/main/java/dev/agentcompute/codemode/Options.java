package dev.agentcompute.codemode;

import dev.agentcompute.codemode.authz.Authorizer;
import dev.agentcompute.codemode.authz.Policy;
import java.util.ArrayList;
import java.util.List;

/**
 * Configuration of one server build. The policy is required (there is no default); disabled
 * capabilities are stable ids removed when the catalog is built; zero limits take defaults.
 */
public record Options(Policy policy, List<String> disabledCapabilities, Limits limits) {

    public Options {
        disabledCapabilities = disabledCapabilities == null ? List.of() : List.copyOf(disabledCapabilities);
        limits = limits == null ? Limits.unset() : limits;
    }

    public static Draft builder() {
        return new Draft();
    }

    /** Fluent construction of {@link Options}. */
    public static final class Draft {
        private Policy policy;
        private final List<String> disabled = new ArrayList<>();
        private Limits limits = Limits.unset();

        private Draft() {
        }

        public Draft policy(Policy policy) {
            this.policy = policy;
            return this;
        }

        /** Execute-time authorizer; discovery stays unrestricted ({@link Policy#of}). */
        public Draft authorizer(Authorizer authorizer) {
            this.policy = authorizer == null ? null : Policy.of(authorizer);
            return this;
        }

        public Draft disable(String... capabilityIds) {
            disabled.addAll(List.of(capabilityIds));
            return this;
        }

        public Draft limits(Limits limits) {
            this.limits = limits;
            return this;
        }

        public Options build() {
            return new Options(policy, disabled, limits);
        }
    }
}
