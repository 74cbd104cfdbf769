package dev.agentcompute.server.admin;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.spi.ServerFeature;

/**
 * The admin API ({@code /admin}) and the console ({@code /console}) on the MCP listener, both over
 * one {@link AdminService} and one {@link AdminAccess}.
 */
public final class AdminFeature implements ServerFeature {
  private final AdminService service;
  private final AdminAccess access;

  public AdminFeature(AdminService service, AdminAccess access) {
    this.service = service;
    this.access = access;
  }

  @Override
  public void setup(ServerFeatureContext context) {
    var routing = context.socket(WebServer.DEFAULT_SOCKET_NAME).httpRouting();
    new AdminRoutes(service, access).register(routing);
    new ConsoleRoutes(service, access).register(routing);
  }

  @Override
  public String name() {
    return "admin";
  }

  @Override
  public String type() {
    return "admin";
  }
}
