package dev.agentcompute.capabilities.model;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The Windows exec wrapper (docs/reference/capabilities.md#windows-guests): PowerShell starts
 * {@code cmd.exe /d /s /c "<command>"} and exits with its exit code. The script travels as {@code
 * -EncodedCommand} (base64 of UTF-16LE) so no quoting of the command survives into the Incus argv.
 */
public final class WindowsExec {
  private WindowsExec() {}

  /** The argv that runs {@code command} under cmd.exe. */
  public static List<String> command(String command) {
    return powerShell(
        "$p=[System.Diagnostics.ProcessStartInfo]::new();$p.FileName='cmd.exe';"
            + "$p.Arguments='/d /s /c \"'+'"
            + command.replace("'", "''")
            + "'+'\"';$p.UseShellExecute=$false;"
            + "$child=[System.Diagnostics.Process]::Start($p);$child.WaitForExit();"
            + "exit $child.ExitCode");
  }

  /** The argv that runs a PowerShell script. */
  public static List<String> powerShell(String script) {
    return List.of(
        "powershell.exe",
        "-NoLogo",
        "-NoProfile",
        "-NonInteractive",
        "-EncodedCommand",
        Base64.getEncoder().encodeToString(script.getBytes(StandardCharsets.UTF_16LE)));
  }
}
