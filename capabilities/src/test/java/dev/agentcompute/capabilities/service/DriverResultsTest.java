package dev.agentcompute.capabilities.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a Driver answer means for desktop.call's {@code ok}, {@code summary} and {@code result}: an
 * MCP {@code tools/call} result (Windows, docs/reference/capabilities.md#desktops) read from the
 * JSON the Driver sends, and the CLI's text (Linux, macOS) it falls back to.
 */
class DriverResultsTest {

  private static McpSchema.CallToolResult answer(String json) throws IOException {
    return McpJsonDefaults.getMapper().readValue(json, McpSchema.CallToolResult.class);
  }

  static Stream<Arguments> mcpAnswers() {
    String png = "iVBORw0KGgo" + "A".repeat(40);
    return Stream.of(
        Arguments.of(
            "an error is a failure summarized by its text parts, joined and trimmed",
            "{\"content\":[{\"type\":\"text\",\"text\":\" Unknown \"},"
                + "{\"type\":\"image\",\"data\":\""
                + png
                + "\",\"mimeType\":\"image/png\"},"
                + "{\"type\":\"text\",\"text\":\"tool: x\\nsee tools/list \"}],\"isError\":true}",
            false,
            "Unknown tool: x\nsee tools/list",
            ""),
        Arguments.of(
            "an error stays a failure whatever structured content comes with it",
            "{\"content\":[{\"type\":\"text\",\"text\":\"denied\"}],\"isError\":true,"
                + "\"structuredContent\":{\"code\":\"permission_denied\"}}",
            false,
            "denied",
            ""),
        Arguments.of(
            "structured content is success, without its image payloads",
            "{\"content\":[{\"type\":\"text\",\"text\":\"1 app\"}],\"structuredContent\":"
                + "{\"apps\":[\"notepad\"],\"screenshot_png_b64\":\""
                + png
                + "\","
                + "\"thumb\":\"data:image/png;base64,"
                + png
                + "\"}}",
            true,
            "structured content",
            "{\"apps\":[\"notepad\"]}"),
        Arguments.of(
            "a structured list is success too",
            "{\"content\":[],\"structuredContent\":[{\"pid\":1},\"data:image/png;base64,"
                + png
                + "\"]}",
            true,
            "structured content",
            "[{\"pid\":1}]"),
        Arguments.of(
            "the Driver's native [OK] text is success",
            "{\"content\":[{\"type\":\"text\",\"text\":\"[OK] Clicked at (1, 2)\\nmore\"}]}",
            true,
            "[OK] Clicked at (1, 2)",
            "[OK] Clicked at (1, 2)\nmore"),
        Arguments.of(
            "[OK] alone is success",
            "{\"content\":[{\"type\":\"text\",\"text\":\"[OK]\"}]}",
            true,
            "[OK]",
            "[OK]"),
        Arguments.of(
            "a text that only starts like [OK] is not",
            "{\"content\":[{\"type\":\"text\",\"text\":\"[OK]ay, maybe\"}]}",
            false,
            "[OK]ay, maybe",
            "[OK]ay, maybe"),
        Arguments.of(
            "a text that is a JSON object reads as the CLI's structured output",
            "{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"typed\\\": 5, \\\"summary\\\":"
                + " \\\"typed 5 characters\\\"}\"}]}",
            true,
            "typed 5 characters",
            "{\"typed\":5,\"summary\":\"typed 5 characters\"}"),
        Arguments.of(
            "other text fails closed, as the CLI's does",
            "{\"content\":[{\"type\":\"text\",\"text\":\"pressed the key\\nsecond line\"}]}",
            false,
            "pressed the key",
            "pressed the key\nsecond line"),
        Arguments.of(
            "no content at all is a failure with nothing to say",
            "{\"content\":[]}",
            false,
            "",
            ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mcpAnswers")
  void mcpAnswersAreClassifiedAsTheOriginalDoes(
      String why, String json, boolean ok, String summary, String result) throws IOException {
    assertThat(DriverResults.mcp("tool", answer(json)))
        .isEqualTo(new DriverResults.Outcome(ok, summary, result));
  }

  static Stream<Arguments> cliTexts() {
    return Stream.of(
        Arguments.of("{\"summary\":\"Clicked\",\"x\":1}", true, "Clicked"),
        Arguments.of("{\"message\":\"moved\"}", true, "moved"),
        Arguments.of("{\"status\":\"ok\"}", true, "ok"),
        Arguments.of("{\"a\":1,\"b\":2}", true, "click returned 2 fields"),
        Arguments.of("Error: click requires x and y", false, "Error: click requires x and y"),
        Arguments.of("[1, 2]", false, "[1, 2]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cliTexts")
  void cliTextIsAJsonObjectOrAToolError(String text, boolean ok, String summary) {
    DriverResults.Outcome outcome = DriverResults.text("click", text);
    assertThat(outcome.ok()).isEqualTo(ok);
    assertThat(outcome.summary()).isEqualTo(summary);
  }
}
