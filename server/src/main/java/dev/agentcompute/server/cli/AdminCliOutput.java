package dev.agentcompute.server.cli;

import java.io.PrintStream;
import tools.jackson.databind.JsonNode;

/** The admin CLI's plain-text answers: one line per item, columns separated by two spaces. */
final class AdminCliOutput {
  private AdminCliOutput() {}

  static void print(String command, JsonNode body, PrintStream out) {
    switch (command) {
      case "sandboxes" -> {
        out.println("NAME  OWNER  PLATFORM  EXPIRES  PINNED  INSTANCES");
        for (JsonNode s : body.path("sandboxes")) {
          out.println(
              String.join(
                  "  ",
                  s.path("name").asString(),
                  dash(s.path("owner").asString()),
                  s.path("platform").asString(),
                  s.path("expires_at").asString(),
                  s.path("pinned").asBoolean() ? "yes" : "no",
                  Integer.toString(s.path("instance_count").asInt())));
        }
      }
      case "extend" ->
          out.println(
              body.path("name").asString()
                  + (body.path("kept").asBoolean()
                      ? " already lives longer: expires at "
                      : " now expires at ")
                  + body.path("expires_at").asString());
      case "delete" -> out.println("deleted " + body.path("deleted").asString());
      case "executes" -> {
        out.println("ID  SUBJECT  SESSION  AGE  CURRENT_CALL  CALLS_DONE");
        for (JsonNode e : body.path("executes")) {
          out.println(
              String.join(
                  "  ",
                  e.path("id").asString(),
                  dash(e.path("subject").asString()),
                  dash(e.path("session").asString()),
                  e.path("age_seconds").asLong() + "s",
                  dash(e.path("current_call").asString()),
                  Long.toString(e.path("calls_completed").asLong())));
        }
      }
      case "cancel" -> out.println("canceled " + body.path("canceled").asString());
      case "reload-tokens" -> {
        out.println("identities: " + join(body.path("identities")));
        out.println("revoked: " + dash(join(body.path("revoked"))));
      }
      case "audit" -> {
        out.println("TIME  KIND  SUBJECT  ACTION  TARGET  OUTCOME  MS");
        for (JsonNode r : body.path("records")) {
          out.println(
              String.join(
                  "  ",
                  r.path("time").asString(),
                  r.path("kind").asString(),
                  dash(r.path("subject").asString()),
                  r.path("action").asString(),
                  dash(r.path("target").asString()),
                  r.path("outcome").asString(),
                  Long.toString(r.path("duration_ms").asLong())));
        }
      }
      default -> out.println(body);
    }
  }

  private static String join(JsonNode array) {
    StringBuilder sb = new StringBuilder();
    for (JsonNode n : array) {
      if (!sb.isEmpty()) {
        sb.append(",");
      }
      sb.append(n.asString());
    }
    return sb.toString();
  }

  private static String dash(String s) {
    return s == null || s.isEmpty() ? "-" : s;
  }
}
