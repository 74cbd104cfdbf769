package dev.agentcompute.starlark.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The runner itself: a broken judge or classifier would let the suite pass without checking. */
class ConformanceRunnerTest {
  private static final SuiteFile FILE =
      new SuiteFile("x/testdata/t.star", "exec", Set.of(), List.of(), false);

  private static Chunk chunk(String src, Expectation... expects) {
    List<String> options =
        Classifier.OPTIONS.stream().filter(o -> src.contains("option:" + o)).toList();
    return new Chunk(FILE, 0, 1, src, List.of(expects), options);
  }

  @Test
  void anExpectedErrorMustMatchAndBeReportedOnItsLine() {
    Chunk c =
        chunk("x = 1\n1 // 0 ### \"division by zero\"\n", new Expectation(2, "division by zero"));
    assertTrue(ChunkRunner.judge(c, 1, "x/testdata/t.star:2:3: floored division by zero").ok());
    assertFalse(ChunkRunner.judge(c, 1, "x/testdata/t.star:1:3: floored division by zero").ok());
    assertFalse(ChunkRunner.judge(c, 1, "x/testdata/t.star:2:3: something else").ok());
    assertFalse(ChunkRunner.judge(c, 0, "").ok(), "success where an error is expected");
  }

  @Test
  void aChunkWithoutExpectationsMustSucceed() {
    Chunk c = chunk("assert.eq(1, 1)\n");
    assertTrue(ChunkRunner.judge(c, 0, "").ok());
    assertFalse(ChunkRunner.judge(c, 1, "t.star:1:1: assertion failed").ok());
  }

  @Test
  void theChunksOwnRunIsJudgedByTheInterpreter() {
    Chunk bad = chunk("load(\"assert.star\", \"assert\")\nassert.eq(1, 2)\n");
    assertFalse(ChunkRunner.run(bad, Plan.run(bad, Set.of()), Profile.CODEMODE).ok());
    Chunk good = chunk("load(\"assert.star\", \"assert\")\nassert.eq(1 + 1, 2)\n");
    assertTrue(ChunkRunner.run(good, Plan.run(good, Set.of()), Profile.CODEMODE).ok());
  }

  @Test
  void codemodeSkipsDialectOptionsButTheFullProfileRunsThem() {
    Chunk c = chunk("# option:while\ndef f():\n  while False:\n    pass\n");
    Plan p = Classifier.classify(c, Profile.CODEMODE);
    assertEquals(Plan.Status.SKIP, p.status());
    assertEquals("option:while", p.reason());
    assertEquals(Plan.Status.RUN, Classifier.classify(c, Profile.FULL).status());
  }

  @Test
  void codemodeRemovesStatementsThatNeedSetAndWhatDependsOnThem() {
    Chunk c =
        chunk(
            "load(\"assert.star\", \"assert\")\n"
                + "s = set([1])\n"
                + "t = len(s)\n"
                + "assert.eq(t, 1)\n"
                + "assert.eq(len([1]), 1)\n");
    Plan p = Classifier.classify(c, Profile.CODEMODE);
    assertEquals(Plan.Status.ADAPTED, p.status());
    assertEquals("removed 3 statement(s) using set", p.reason());
    assertEquals(
        "load(\"assert.star\", \"assert\")\n\n\n\nassert.eq(len([1]), 1)\n", p.runSource());
  }
}
