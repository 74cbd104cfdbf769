package dev.agentcompute.codemode.search;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TokenizerTest {

  @Test
  void tokenizerRules() {
    assertThat(Tokenizer.tokens("GitHub")).containsExactly("github");
    assertThat(Tokenizer.tokens("MySQL")).containsExactly("mysql");
    assertThat(Tokenizer.tokens("parseXMLFile")).containsExactly("parse", "xml", "file");
    assertThat(Tokenizer.tokens("createReview")).containsExactly("create", "review");
    assertThat(Tokenizer.tokens("createPullRequest")).containsExactly("create", "pullrequest");
    assertThat(Tokenizer.tokens("getHTTPResponseCode"))
        .containsExactly("get", "http", "responsecode");
    assertThat(Tokenizer.tokens("ipv4Address")).containsExactly("ipv", "4", "address");
    assertThat(Tokenizer.tokens("pull_request")).containsExactly("pull", "request");
    assertThat(Tokenizer.tokens("GitHub.Pulls.createReview"))
        .containsExactly("github", "pulls", "create", "review");
    assertThat(Tokenizer.tokens("\u00a0 the list of the records\u0085"))
        .containsExactly("list", "records");
  }
}
