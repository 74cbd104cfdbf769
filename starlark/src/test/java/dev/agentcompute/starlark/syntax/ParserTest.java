package dev.agentcompute.starlark.syntax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class ParserTest {
  private static FileNode parse(String src) throws SyntaxError {
    return Parser.parseFile("t.star", src);
  }

  private static String error(String src) {
    try {
      parse(src);
    } catch (SyntaxError e) {
      return e.getMessage();
    }
    throw new AssertionError("no syntax error for: " + src);
  }

  @Test
  void parsesStatementsWithPositions() throws SyntaxError {
    FileNode f = parse("x = 1\ndef f(a, b=2, *args, c, **kw):\n    return a + b\n");
    assertThat(f.stmts).hasSize(2);
    Stmt.AssignStmt a = (Stmt.AssignStmt) f.stmts.get(0);
    assertThat(a.lhs.start()).isEqualTo(new Position("t.star", 1, 1));
    assertThat(a.opPos).isEqualTo(new Position("t.star", 1, 3));
    Stmt.DefStmt d = (Stmt.DefStmt) f.stmts.get(1);
    assertThat(d.name.name).isEqualTo("f");
    assertThat(d.params).hasSize(5);
    assertThat(d.body.get(0).start()).isEqualTo(new Position("t.star", 3, 5));
  }

  @Test
  void literals() throws SyntaxError {
    FileNode f =
        parse(
            "x = [0x1F, 0o17, 0b101, 123456789012345678901234567890, 1.5e3, 'a\\tb', b'\\xff', r'\\n']\n");
    Expr.ListExpr l = (Expr.ListExpr) ((Stmt.AssignStmt) f.stmts.get(0)).rhs;
    assertThat(((Expr.Literal) l.list.get(0)).value).isEqualTo(31L);
    assertThat(((Expr.Literal) l.list.get(1)).value).isEqualTo(15L);
    assertThat(((Expr.Literal) l.list.get(2)).value).isEqualTo(5L);
    assertThat(((Expr.Literal) l.list.get(3)).value)
        .isEqualTo(new BigInteger("123456789012345678901234567890"));
    assertThat(((Expr.Literal) l.list.get(4)).value).isEqualTo(1500.0);
    assertThat(((Expr.Literal) l.list.get(5)).value).isEqualTo("a\tb");
    assertThat((byte[]) ((Expr.Literal) l.list.get(6)).value).containsExactly((byte) 0xff);
    assertThat(((Expr.Literal) l.list.get(7)).value).isEqualTo("\\n");
  }

  @Test
  void errorsMatchStarlarkGo() {
    assertThat(error("x = 1 +\n")).isEqualTo("t.star:1:8: got newline, want primary expression");
    assertThat(error("x = 2 ** 3\n")).isEqualTo("t.star:1:7: got '**', want newline");
    assertThat(error("f(2 ** 3)\n")).contains("got '**', want ','");
    assertThat(error("x = 1 if 2\n")).contains("conditional expression without else clause");
    assertThat(error("x = a not b\n")).contains("got identifier, want in");
    assertThat(error("_ = 0 <= i < n\n")).contains("<= does not associate with < (use parens)");
    assertThat(error("x = 0755\n")).contains("obsolete form of octal literal; use 0o755");
    assertThat(error("x = 1e400\n")).contains("invalid float literal");
    assertThat(error("s = '\\377'\n")).contains("non-ASCII octal escape \\377");
    assertThat(error("s = 'abc\n")).contains("unexpected newline in string");
    assertThat(error("s = '\\q'\n")).contains("invalid escape sequence \\q");
    assertThat(error("def f():\n    pass\n  pass\n"))
        .contains("unindent does not match any outer indentation level");
    assertThat(error("class X: pass\n")).contains("got illegal token, want primary expression");
    assertThat(error("load = 1\n")).contains("got '=', want '('");
    assertThat(error("a, b, = 1, 2\n")).contains("unparenthesized tuple with trailing comma");
  }

  @Test
  void tabsAdvanceToMultipleOfEight() throws SyntaxError {
    FileNode f = parse("def f():\n\tif 1:\n\t    pass\n\treturn 1\n");
    assertThat(((Stmt.DefStmt) f.stmts.get(0)).body).hasSize(2);
  }

  @Test
  void deepNestingIsASyntaxErrorNotAStackOverflow() {
    String deep = "x = " + "(".repeat(5000) + "1" + ")".repeat(5000) + "\n";
    assertThatThrownBy(() -> parse(deep))
        .isInstanceOf(SyntaxError.class)
        .hasMessageContaining("nesting too deep");
    String unary = "x = " + "-".repeat(5000) + "1\n";
    assertThatThrownBy(() -> parse(unary))
        .isInstanceOf(SyntaxError.class)
        .hasMessageContaining("nesting too deep");
    StringBuilder blocks = new StringBuilder("def f():\n");
    for (int i = 1; i < 400; i++) {
      blocks.append(" ".repeat(i)).append("if 1:\n");
    }
    blocks.append(" ".repeat(400)).append("pass\n");
    assertThatThrownBy(() -> parse(blocks.toString()))
        .isInstanceOf(SyntaxError.class)
        .hasMessageContaining("nesting too deep");
  }
}
