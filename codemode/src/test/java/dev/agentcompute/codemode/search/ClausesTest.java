package dev.agentcompute.codemode.search;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClausesTest {

  @Test
  void aQueryIsSplitAtCommasSemicolonsLineBreaksAndThen() {
    assertThat(SearchIndex.clauses("create sandbox, list images; start container\nrun command"))
        .containsExactly("create sandbox", " list images", " start container", "run command");
    assertThat(SearchIndex.clauses("list images and then run command Then read file"))
        .containsExactly("list images and ", " run command ", " read file");
    // "then" only as a word: "thence" and "athens" are not split.
    assertThat(SearchIndex.clauses("thence athens")).containsExactly("thence athens");
    assertThat(SearchIndex.clauses("run shell command")).containsExactly("run shell command");
  }
}
