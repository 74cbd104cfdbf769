package dev.agentcompute.capabilities.catalog;

/** Where a catalogue image comes from: exactly one of these per entry. */
public sealed interface ImageSource {
  /**
   * An alias already present in the image source project (imported by an operator or dev/setup).
   */
  record Alias(String alias) implements ImageSource {}

  /** An OCI digest reference ({@code repo@sha256:<64 hex>}) or an upstream {@code remote:alias}. */
  record Reference(String reference) implements ImageSource {
    /** True for {@code remote:alias} references, which are fetched on first use, not at startup. */
    public boolean isRemoteAlias() {
      return !reference.contains("@sha256:");
    }
  }

  /** A host-local Mac seed (Lume backend); never reconciled with Incus. */
  record Seed(String seed) implements ImageSource {}
}
