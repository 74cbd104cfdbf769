package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ExecutionObserverTest {
  @Test
  void bothObserversHearEveryEventEvenWhenTheFirstThrows() {
    ExecutionObserver failing =
        new ExecutionObserver() {
          @Override
          public void callStarted(String capability, long completed) {
            throw new IllegalStateException("broken observer");
          }
        };
    List<String> heard = new ArrayList<>();
    ExecutionObserver recording =
        new ExecutionObserver() {
          @Override
          public void callStarted(String capability, long completed) {
            heard.add("started " + capability + " " + completed);
          }

          @Override
          public void callCompleted(String capability, long completed) {
            heard.add("completed " + capability + " " + completed);
          }

          @Override
          public void stage(
              String capability, long completed, String message, OptionalDouble fraction) {
            heard.add("stage " + message);
          }
        };
    ExecutionObserver both = ExecutionObserver.both(failing, recording);
    both.callStarted("sandbox.list", 0);
    both.stage("sandbox.list", 0, "listing", OptionalDouble.empty());
    both.callCompleted("sandbox.list", 1);
    assertThat(heard)
        .containsExactly("started sandbox.list 0", "stage listing", "completed sandbox.list 1");
  }
}
