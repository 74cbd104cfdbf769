package dev.agentcompute.server.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code agentcompute-server admin ...}: the admin API from a shell
 * (docs/operations.md#administration). The token comes from {@code --token-file}, {@code
 * AGENTCOMPUTE_ADMIN_TOKEN_FILE} or {@code AGENTCOMPUTE_ADMIN_TOKEN} (never a flag: it would show
 * in the process list). Exit status 0 done, 1 refused or failed, 2 a usage error.
 */
public final class AdminCli {
  public static final String USAGE =
      """
      Usage: agentcompute-server admin COMMAND [ARGS] [--url URL] [--token-file FILE] [--json]

      Commands:
        sandboxes               every identity's sandboxes, owners, expiry and instances
        extend NAME DURATION    set a sandbox to expire DURATION from now (90m, 2h, 1h30m)
        delete NAME             delete a sandbox and everything in it
        executes                the executes running now, with the native call in progress
        cancel ID               stop a running execute (its worker is killed)
        reload-tokens           read the bearer token file again now
        audit [--subject S] [--limit N]   recent audit records, newest first

      Flags:
        --url URL           the server (default http://localhost:8080)  env AGENTCOMPUTE_ADMIN_URL
        --token-file FILE   file holding an operator's token            env AGENTCOMPUTE_ADMIN_TOKEN_FILE
                            (or the token itself in AGENTCOMPUTE_ADMIN_TOKEN)
        --json              print the server's JSON answer as it is
      """;

  static final String DEFAULT_URL = "http://localhost:8080";
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private AdminCli() {}

  /** A parsed admin command line. */
  record Args(
      String command,
      List<String> operands,
      String url,
      String token,
      boolean json,
      String subject,
      String limit) {}

  public static int run(
      List<String> args, Map<String, String> env, PrintStream stdout, PrintStream stderr) {
    Args a;
    try {
      a = parse(args, env);
    } catch (IllegalArgumentException e) {
      stderr.println("agentcompute-server admin: " + e.getMessage());
      stderr.print(USAGE);
      return 2;
    }
    if (a.command().equals("help")) {
      stdout.print(USAGE);
      return 0;
    }
    try {
      HttpResponse<String> response = send(a);
      JsonNode body = parseBody(response.body());
      if (response.statusCode() != 200) {
        String error = body.path("error").asString("HTTP " + response.statusCode());
        stderr.println("agentcompute-server admin: " + explain(response.statusCode(), error));
        return 1;
      }
      if (a.json()) {
        stdout.println(response.body());
      } else {
        AdminCliOutput.print(a.command(), body, stdout);
      }
      return 0;
    } catch (ConnectException | HttpTimeoutException e) {
      stderr.println(
          "agentcompute-server admin: cannot reach the server at "
              + a.url()
              + " ("
              + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
              + "): is it running, and is --url right?");
      return 1;
    } catch (IOException e) {
      stderr.println(
          "agentcompute-server admin: request to " + a.url() + " failed: " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  static String explain(int status, String error) {
    return switch (status) {
      case 401 ->
          "401 unauthorized: "
              + error
              + " (give an operator's token with --token-file, AGENTCOMPUTE_ADMIN_TOKEN_FILE or"
              + " AGENTCOMPUTE_ADMIN_TOKEN)";
      case 403 -> "403 forbidden: " + error;
      case 404 -> "404 not found: " + error;
      default -> status + ": " + error;
    };
  }

  private static JsonNode parseBody(String body) {
    try {
      return JSON.readTree(body == null || body.isBlank() ? "{}" : body);
    } catch (JacksonException e) {
      return JSON.readTree("{}");
    }
  }

  static Args parse(List<String> args, Map<String, String> env) {
    List<String> positional = new ArrayList<>();
    String url = env.getOrDefault("AGENTCOMPUTE_ADMIN_URL", DEFAULT_URL);
    String tokenFile = env.get("AGENTCOMPUTE_ADMIN_TOKEN_FILE");
    boolean json = false;
    String subject = null;
    String limit = null;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      String name = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      switch (name) {
        case "-h", "--help" -> {
          return new Args("help", List.of(), url, "", false, null, null);
        }
        case "--json" -> json = true;
        case "--url", "--token-file", "--subject", "--limit" -> {
          if (value == null) {
            if (i + 1 >= args.size()) {
              throw new IllegalArgumentException("flag needs an argument: " + name);
            }
            value = args.get(++i);
          }
          switch (name) {
            case "--url" -> url = value;
            case "--token-file" -> tokenFile = value;
            case "--subject" -> subject = value;
            default -> limit = value;
          }
        }
        default -> {
          if (arg.startsWith("--")) {
            throw new IllegalArgumentException("unknown flag: " + name);
          }
          positional.add(arg);
        }
      }
    }
    if (positional.isEmpty()) {
      throw new IllegalArgumentException("name a command");
    }
    String command = positional.getFirst();
    List<String> operands = positional.subList(1, positional.size());
    int wanted =
        switch (command) {
          case "sandboxes", "executes", "reload-tokens", "audit", "help" -> 0;
          case "delete", "cancel" -> 1;
          case "extend" -> 2;
          default ->
              throw new IllegalArgumentException("unknown admin command \"" + command + "\"");
        };
    if (operands.size() != wanted) {
      throw new IllegalArgumentException(
          command + " takes " + wanted + " argument" + (wanted == 1 ? "" : "s"));
    }
    if ((subject != null || limit != null) && !command.equals("audit")) {
      throw new IllegalArgumentException("--subject and --limit belong to the audit command");
    }
    URI base;
    try {
      base = URI.create(url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--url " + url + " is not a URL");
    }
    if (base.getScheme() == null
        || !(base.getScheme().equals("http") || base.getScheme().equals("https"))
        || base.getHost() == null) {
      throw new IllegalArgumentException("--url must be http://HOST:PORT or https://HOST:PORT");
    }
    return new Args(
        command,
        List.copyOf(operands),
        stripSlash(url),
        token(tokenFile, env),
        json,
        subject,
        limit);
  }

  private static String token(String tokenFile, Map<String, String> env) {
    if (tokenFile != null && !tokenFile.isEmpty()) {
      try {
        return Files.readString(Path.of(tokenFile)).strip();
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read the token file " + tokenFile + ": " + e);
      }
    }
    return env.getOrDefault("AGENTCOMPUTE_ADMIN_TOKEN", "").strip();
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  static HttpRequest request(Args a) {
    String path =
        switch (a.command()) {
          case "sandboxes" -> "/admin/sandboxes";
          case "extend" -> "/admin/sandboxes/" + enc(a.operands().get(0)) + "/extend";
          case "delete" -> "/admin/sandboxes/" + enc(a.operands().get(0));
          case "executes" -> "/admin/executes";
          case "cancel" -> "/admin/executes/" + enc(a.operands().get(0)) + "/cancel";
          case "reload-tokens" -> "/admin/tokens/reload";
          case "audit" -> "/admin/audit" + auditQuery(a);
          default -> throw new IllegalStateException(a.command());
        };
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(a.url() + path)).timeout(REQUEST_TIMEOUT);
    if (!a.token().isEmpty()) {
      b.header("Authorization", "Bearer " + a.token());
    }
    return switch (a.command()) {
      case "extend" ->
          b.header("Content-Type", "application/json")
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      JSON.writeValueAsString(Map.of("duration", a.operands().get(1)))))
              .build();
      case "delete" -> b.DELETE().build();
      case "cancel", "reload-tokens" -> b.POST(HttpRequest.BodyPublishers.noBody()).build();
      default -> b.GET().build();
    };
  }

  private static String auditQuery(Args a) {
    List<String> q = new ArrayList<>();
    if (a.subject() != null) {
      q.add("subject=" + enc(a.subject()));
    }
    if (a.limit() != null) {
      q.add("limit=" + enc(a.limit()));
    }
    return q.isEmpty() ? "" : "?" + String.join("&", q);
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static HttpResponse<String> send(Args a) throws IOException, InterruptedException {
    try (HttpClient client = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build()) {
      return client.send(request(a), HttpResponse.BodyHandlers.ofString());
    }
  }
}
