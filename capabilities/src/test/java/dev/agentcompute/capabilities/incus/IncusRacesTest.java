package dev.agentcompute.capabilities.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class IncusRacesTest {
  private static final String RACE =
      "DELETE /1.0/networks/ac36f73341: Failed to delete bridge children interfaces: Failed to run:"
          + " ip -d -j link show veth15b78dde: exit status 1 (Device \"veth15b78dde\" does not"
          + " exist.)";

  private static RuntimeException failure(String message) {
    return new IllegalStateException(message);
  }

  /** The production test, on the message alone (incus-client's exceptions are its own). */
  private static boolean race(RuntimeException e) {
    return e.getMessage().contains("Failed to delete bridge children interfaces");
  }

  @Test
  void aBridgeChildrenRaceIsRetriedUntilTheCallSucceeds() {
    AtomicInteger calls = new AtomicInteger();

    String result =
        IncusRaces.retried(
            "delete bridge",
            () -> {
              if (calls.incrementAndGet() < 3) {
                throw failure(RACE);
              }
              return "done";
            },
            IncusRacesTest::race);

    assertThat(result).isEqualTo("done");
    assertThat(calls).hasValue(3);
  }

  /** The texts Incus gave in each race seen here contain exactly one signature each. */
  @Test
  void everySeenRaceTextHasItsSignature() {
    String vanishedBridge =
        "DELETE /1.0/networks/ac952ed19c: Failed to run: ip link delete dev ac952ed19c: exit status"
            + " 1 (Cannot find device \"ac952ed19c\")";
    for (String text : java.util.List.of(RACE, vanishedBridge, "database is locked")) {
      assertThat(IncusRaces.SIGNATURES.stream().filter(text::contains)).hasSize(1);
    }
    assertThat(IncusRaces.SIGNATURES.stream().filter("network is in use"::contains)).isEmpty();
  }

  @Test
  void onlyIncusFailuresWithAKnownRaceSignatureCountAsRaces() {
    assertThat(IncusRaces.isRace(new IllegalStateException(RACE))).isFalse();
  }

  @Test
  void anOrdinaryFailureIsNotRetried() {
    AtomicInteger calls = new AtomicInteger();

    assertThatThrownBy(
            () ->
                IncusRaces.retried(
                    "delete bridge",
                    () -> {
                      calls.incrementAndGet();
                      throw failure("network is in use");
                    },
                    IncusRacesTest::race))
        .hasMessage("network is in use");
    assertThat(calls).hasValue(1);
  }

  @Test
  void aRaceThatPersistsEndsAfterABoundedNumberOfAttempts() {
    AtomicInteger calls = new AtomicInteger();

    assertThatThrownBy(
            () ->
                IncusRaces.retried(
                    "delete bridge",
                    () -> {
                      calls.incrementAndGet();
                      throw failure(RACE);
                    },
                    IncusRacesTest::race))
        .hasMessage(RACE);
    assertThat(calls).hasValue(6);
  }
}
