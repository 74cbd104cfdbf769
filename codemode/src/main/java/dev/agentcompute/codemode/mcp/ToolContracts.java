package dev.agentcompute.codemode.mcp;

import io.modelcontextprotocol.spec.McpSchema;

/**
 * What the three tools advertise (docs/reference/codemode.md#tool-descriptions, #schemas;
 * docs/reference/policy.md#hints, #search-cursors): the model-facing descriptions, verbatim, the
 * input and output schemas, and the tool annotations.
 */
final class ToolContracts {

  private ToolContracts() {}

  static final String SEARCH_DESCRIPTION =
      "Search enabled capabilities using task, resource, or exact-name vocabulary. "
          + "Results are relevance-ranked. Pass the exact returned name to describe_api. If truncated is true and no "
          + "result fits, submit a more specific task/resource query. If next_cursor is present, call search_api again "
          + "with the same query and that cursor to get more results.";
  static final String DESCRIBE_DESCRIPTION =
      "Describe one enabled capability by the exact name returned by search_api, "
          + "without whitespace or case changes.";
  static final String EXECUTE_DESCRIPTION =
      "Execute one Starlark program that defines def main(): with zero arguments, "
          + "calls only names confirmed through search_api and describe_api inside main, and returns main's final "
          + "result. Standard Starlark builtins plus sum(iterable), json.decode/encode/indent, and math.* are directly "
          + "available without import. import, while, f-strings, filter, and map are unavailable; load is disabled; "
          + "print is discarded.";

  /**
   * execute's description on a server with agent guidance: the original text plus the calling
   * convention, a four-line example, and that a failure is not rolled back.
   */
  static final String EXECUTE_DESCRIPTION_GUIDED =
      EXECUTE_DESCRIPTION
          + " Call capabilities with keyword arguments only; each returns a dict, read fields with"
          + " r[\"key\"] (not r.key). Example:\n"
          + "def main():\n"
          + "    sb = sandbox.create(ttl_minutes=60)\n"
          + "    instance.create(sandbox=sb[\"name\"], name=\"web\", image=\"busybox\")\n"
          + "    return instance.exec(sandbox=sb[\"name\"], name=\"web\", command=\"uname -a\")[\"stdout\"]\n"
          + "A failure is not rolled back: calls that succeeded before it stay done, and the error"
          + " names them (before this: ...). Errors give line:col and what to fix.";

  static final String SEARCH_INPUT = input("query", "cursor");
  static final String DESCRIBE_INPUT = input("name", null);
  static final String EXECUTE_INPUT = input("source", "confirmation");

  private static final String FIELD =
      "{\"type\":\"object\",\"required\":[\"name\",\"type\",\"required\"],"
          + "\"additionalProperties\":false,\"properties\":{\"name\":{\"type\":\"string\"},\"type\":{\"type\":\"string\"},"
          + "\"required\":{\"type\":\"boolean\"}}}";
  private static final String HINTS =
      "{\"type\":\"object\",\"required\":[\"read_only\",\"destructive\",\"idempotent\","
          + "\"open_world\"],\"additionalProperties\":false,\"properties\":{\"read_only\":{\"type\":\"boolean\"},"
          + "\"destructive\":{\"type\":\"boolean\"},\"idempotent\":{\"type\":\"boolean\"},\"open_world\":"
          + "{\"type\":\"boolean\"}}}";
  static final String SEARCH_OUTPUT =
      "{\"type\":\"object\",\"required\":[\"results\",\"truncated\"],"
          + "\"additionalProperties\":false,\"properties\":{\"results\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
          + "\"required\":[\"name\",\"signature\",\"summary\"],\"additionalProperties\":false,\"properties\":{\"name\":"
          + "{\"type\":\"string\"},\"signature\":{\"type\":\"string\"},\"summary\":{\"type\":\"string\"}}}},\"truncated\":"
          + "{\"type\":\"boolean\"},\"next_cursor\":{\"type\":\"string\"}}}";
  static final String DESCRIBE_OUTPUT =
      "{\"type\":\"object\",\"required\":[\"name\",\"signature\",\"summary\","
          + "\"description\",\"input\",\"output\",\"hints\"],\"additionalProperties\":false,\"properties\":{\"name\":"
          + "{\"type\":\"string\"},\"signature\":{\"type\":\"string\"},\"summary\":{\"type\":\"string\"},\"description\":"
          + "{\"type\":\"string\"},\"input\":{\"type\":\"array\",\"items\":"
          + FIELD
          + "},\"output\":{\"type\":\"array\",\"items\":"
          + FIELD
          + "},\"hints\":"
          + HINTS
          + ",\"title\":{\"type\":\"string\"}}}";

  /**
   * {@code {result}} on success; {@code {confirmation: {token, capability, arguments, expires_at}}}
   * on a {@code confirmation required} error (docs/reference/policy.md#confirmations). MCP clients
   * (the TypeScript SDK) validate the structured content of error results too, so the schema admits
   * both, exactly one at a time.
   */
  static final String EXECUTE_OUTPUT =
      "{\"type\":\"object\",\"additionalProperties\":false,\"properties\":{\"result\":{},"
          + "\"confirmation\":{\"type\":\"object\",\"required\":[\"token\",\"capability\",\"arguments\","
          + "\"expires_at\"],\"additionalProperties\":false,\"properties\":{\"token\":{\"type\":\"string\"},"
          + "\"capability\":{\"type\":\"string\"},\"arguments\":{\"type\":\"string\"},\"expires_at\":"
          + "{\"type\":\"string\"}}}},\"oneOf\":[{\"required\":[\"result\"]},{\"required\":"
          + "[\"confirmation\"]}]}";

  /** search_api and describe_api only read, repeat safely and stay inside the server. */
  static final McpSchema.ToolAnnotations DISCOVERY =
      new McpSchema.ToolAnnotations(null, true, false, true, false, null);

  /** execute runs whatever the program calls: not read-only, destructive, open world. */
  static final McpSchema.ToolAnnotations EXECUTE =
      new McpSchema.ToolAnnotations(null, false, true, false, true, null);

  private static String input(String required, String optional) {
    return "{\"type\":\"object\",\"required\":[\""
        + required
        + "\"],\"additionalProperties\":false,"
        + "\"properties\":{\""
        + required
        + "\":{\"type\":\"string\"}"
        + (optional == null ? "" : ",\"" + optional + "\":{\"type\":\"string\"}")
        + "}}";
  }
}
