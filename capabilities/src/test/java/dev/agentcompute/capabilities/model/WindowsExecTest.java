package dev.agentcompute.capabilities.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowsExecTest {
  private static String decoded(List<String> argv) {
    return new String(Base64.getDecoder().decode(argv.get(5)), StandardCharsets.UTF_16LE);
  }

  @Test
  void theArgvIsPowerShellWithAnEncodedCommand() {
    assertThat(WindowsExec.command("dir").subList(0, 5))
        .containsExactly(
            "powershell.exe", "-NoLogo", "-NoProfile", "-NonInteractive", "-EncodedCommand");
  }

  @Test
  void theScriptStartsCmdWithTheCommandAndExitsWithItsCode() {
    assertThat(decoded(WindowsExec.command("dir C:\\")))
        .isEqualTo(
            "$p=[System.Diagnostics.ProcessStartInfo]::new();$p.FileName='cmd.exe';"
                + "$p.Arguments='/d /s /c \"'+'dir C:\\'+'\"';$p.UseShellExecute=$false;"
                + "$child=[System.Diagnostics.Process]::Start($p);$child.WaitForExit();"
                + "exit $child.ExitCode");
  }

  @Test
  void singleQuotesInTheCommandAreDoubled() {
    assertThat(decoded(WindowsExec.command("echo 'a'"))).contains("'+'echo ''a'''+'");
  }

  @Test
  void theEncodingIsUtf16LittleEndian() {
    byte[] raw = Base64.getDecoder().decode(WindowsExec.powerShell("é").get(5));
    assertThat(raw).containsExactly((byte) 0xe9, 0);
  }
}
