package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ExecuteIdsTest {

  @Test
  void idsAreUniqueAndSortByCreation() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      ids.add(ExecuteIds.next());
    }
    assertThat(ids).allMatch(id -> id.matches("ex-[0-9a-f]{22}"));
    assertThat(new HashSet<>(ids)).hasSameSizeAs(ids);
    assertThat(ids).isSorted();
    long millis = Long.parseLong(ids.getFirst().substring(3, 15), 16);
    assertThat(millis)
        .isBetween(System.currentTimeMillis() - 60_000, System.currentTimeMillis() + 1);
  }

  @Test
  void theIdTravelsInTheContext() {
    Context ctx = Context.background().withCancel().withValue(ExecuteIds.KEY, "ex-1");
    assertThat(ExecuteIds.of(ctx.withCancel())).isEqualTo("ex-1");
    assertThat(ExecuteIds.of(Context.background())).isNull();
  }
}
