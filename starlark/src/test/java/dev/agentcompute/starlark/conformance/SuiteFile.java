package dev.agentcompute.starlark.conformance;

import java.util.List;
import java.util.Set;

/**
 * One test file of the suite and how starlark-go's own tests run it.
 *
 * @param path the file under the vendored starlark-go tree
 * @param mode {@code exec}, {@code resolve} (parse and resolve) or {@code parse}
 * @param fileFeatures test helpers the whole file needs (its Go test predeclares them)
 * @param predeclared extra predeclared names for resolve mode
 * @param whole the file is one chunk (not split on {@code ---})
 */
record SuiteFile(
    String path, String mode, Set<String> fileFeatures, List<String> predeclared, boolean whole) {

  /**
   * The files and modes of starlark-go's tests that read them (eval_test.go, resolve_test.go...).
   */
  static final List<SuiteFile> ALL =
      List.of(
          exec("assign"),
          exec("bool"),
          exec("builtins"),
          exec("bytes"),
          exec("control"),
          exec("dict"),
          exec("float"),
          exec("function"),
          exec("int"),
          exec("json"),
          exec("list"),
          exec("math"),
          exec("misc"),
          exec("module"),
          exec("recursion"),
          exec("set", "set"),
          exec("string"),
          exec("time", "time"),
          exec("tuple"),
          exec("while"),
          new SuiteFile(
              "starlarkstruct/testdata/struct.star",
              "exec",
              Set.of("struct", "gensym"),
              List.of(),
              false),
          new SuiteFile(
              "resolve/testdata/resolve.star",
              "resolve",
              Set.of(),
              List.of("M", "U", "float"),
              false),
          new SuiteFile("syntax/testdata/errors.star", "parse", Set.of(), List.of(), false),
          // a real-world BUILD-dialect file that must parse as a whole
          new SuiteFile("syntax/testdata/scan.star", "parse", Set.of(), List.of(), true));

  private static SuiteFile exec(String name, String... features) {
    return new SuiteFile(
        "starlark/testdata/" + name + ".star", "exec", Set.of(features), List.of(), false);
  }

  String baseName() {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
