package dev.agentcompute.starlark.resolve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.syntax.FileNode;
import dev.agentcompute.starlark.syntax.Parser;
import dev.agentcompute.starlark.syntax.Scope;
import dev.agentcompute.starlark.syntax.Stmt;
import dev.agentcompute.starlark.syntax.SyntaxError;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ResolverTest {
  private static final Set<String> UNIVERSE = Set.of("len", "set", "print", "True", "None");

  private static List<String> errors(String src, Dialect d) {
    try {
      FileNode f = Parser.parseFile("r.star", src);
      Resolver.resolve(f, d, Set.of("json")::contains, UNIVERSE::contains);
      return List.of();
    } catch (SyntaxError e) {
      return e.errors().stream().map(SyntaxError.Item::toString).toList();
    }
  }

  @Test
  void codemodeRejectsDisabledFeatures() {
    Dialect cm = Dialect.CODEMODE;
    assertThat(errors("s = set()\n", cm))
        .containsExactly("r.star:1:5: this Starlark dialect does not support sets");
    assertThat(errors("def f():\n  while True:\n    pass\n", cm))
        .containsExactly("r.star:2:3: this Starlark dialect does not support while loops");
    assertThat(errors("for x in []:\n  pass\n", cm))
        .containsExactly("r.star:1:1: for loop not within a function");
    assertThat(errors("if True:\n  pass\n", cm))
        .containsExactly("r.star:1:1: if statement not within a function");
    assertThat(errors("x = 1\nx = 2\n", cm))
        .containsExactly("r.star:2:1: cannot reassign global x declared at r.star:1:1");
    assertThat(errors("x = [1]\nx += [2]\n", cm))
        .containsExactly("r.star:2:1: cannot reassign global x declared at r.star:1:1");
  }

  @Test
  void aRepeatedKeywordArgumentReadsAsCodeModeSaysIt() {
    assertThat(errors("len(key=1, key=2)\n", Dialect.CODEMODE))
        .containsExactly("r.star:1:12: keyword argument key repeated");
  }

  @Test
  void aRepeatedKeywordArgumentReadsAsUpstreamSaysItInOtherDialects() {
    assertThat(errors("len(key=1, key=2)\n", Dialect.FULL))
        .containsExactly("r.star:1:12: keyword argument \"key\" is repeated");
  }

  @Test
  void fullDialectAllowsThem() {
    Dialect full = Dialect.FULL;
    assertThat(errors("s = set()\nwhile True:\n  pass\nx = 1\nx = 2\n", full)).isEmpty();
  }

  @Test
  void reportsAllErrorsWithHints() {
    List<String> errs = errors("hello = 1\nlen(hollo)\nreturn\nbreak\n", Dialect.CODEMODE);
    // starlark-go's order: statement errors as found, then names resolved at the end of the file
    assertThat(errs)
        .containsExactly(
            "r.star:3:1: return statement not within a function",
            "r.star:4:1: break not in a loop",
            "r.star:2:5: undefined: hollo (did you mean hello?)");
  }

  @Test
  void closuresUseCells() throws SyntaxError {
    FileNode f = Parser.parseFile("r.star", "def f():\n  x = 1\n  return lambda: x\n");
    Resolver.resolve(f, Dialect.CODEMODE, n -> false, UNIVERSE::contains);
    Stmt.DefStmt d = (Stmt.DefStmt) f.stmts.get(0);
    assertThat(d.function.locals.get(0).scope).isEqualTo(Scope.CELL);
    assertThat(f.globals).hasSize(1);
  }

  @Test
  void loadParsesAndResolvesUnderCodemode() {
    assertThat(errors("load('m.star', 'a')\nb = a\n", Dialect.CODEMODE)).isEmpty();
    assertThat(errors("def f():\n  load('m.star', 'a')\n", Dialect.CODEMODE)).isNotEmpty();
  }
}
