package dev.agentcompute.starlark.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Real programs to mutate: the {@code .star} files under some directories (starlark-go's test files
 * that the conformance suite runs, bench/starlark/programs), split into chunks at starlark-go's
 * {@code ---} separator, plus a few built-in seeds so that the corpus is never empty.
 */
final class Corpus {
  private static final List<String> SEEDS =
      List.of(
          "def main():\n  xs = [i * i for i in range(10) if i % 2]\n  d = {k: v for k, v in enumerate(xs)}\n  return sorted(d.items(), key=lambda kv: -kv[1])\n",
          "def fib(n):\n  return n if n < 2 else fib(n - 1) + fib(n - 2)\ndef main():\n  return fib(40)\n",
          "def main():\n  s = 'hello, world'\n  return [s.upper(), s.split(','), '%s-%d' % (s, 3), s[1:-1:2], s * 3]\n",
          "def f(a, b=2, *args, c=3, **kw):\n  return (a, b, args, c, kw)\ndef main():\n  return [f(1), f(1, 2, 3, c=4, d=5), f(*[1, 2], **{'c': 7})]\n",
          "def main():\n  total = 0\n  for i in range(1000000000):\n    total += i\n  return total\n",
          "def main():\n  x = 3\n  for i in range(40):\n    x = x * x\n  return str(x)[:10]\n",
          "def main():\n  return json.decode(json.encode({'a': [1, 2.5, None, True]}))\n");

  private Corpus() {}

  /** The chunks of every {@code .star} file under {@code dirs} (missing ones are skipped). */
  static List<String> load(List<Path> dirs) {
    List<String> out = new ArrayList<>(SEEDS);
    for (Path dir : dirs) {
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.filter(f -> f.toString().endsWith(".star")).sorted().toList()) {
          for (String chunk : Files.readString(p).split("\n---\n")) {
            if (!chunk.isBlank()) {
              out.add(chunk);
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  /** The repository's corpus seen from the starlark module (as Maven runs its tests). */
  static List<Path> defaultDirs() {
    Path root = Path.of("").toAbsolutePath();
    if (!Files.isDirectory(root.resolve("bench"))) {
      root = root.getParent();
    }
    return List.of(
        root.resolve("bench/starlark/programs"),
        root.resolve("starlark/src/test/conformance/starlark-go"));
  }
}
