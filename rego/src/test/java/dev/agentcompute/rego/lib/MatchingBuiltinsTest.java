package dev.agentcompute.rego.lib;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** regex.match (RE2 syntax), glob.match (gobwas syntax), net.cidr_*, semver, units. */
class MatchingBuiltinsTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "regex.match(\"^[a-z]+\\\\[[0-9]+\\\\]$\", \"foo[1]\") ; true",
        "regex.match(\"b\", \"abc\") ; true",
        "regex.match(\"^a$\", \"a\\n\") ; false",
        "regex.match(\"[[:alpha:]]+\", \"abc\") ; true",
        "regex.match(\"(?P<word>a)\", \"a\") ; true",
        "regex.match(\"[[]\", \"[\") ; true",
        "regex.is_valid(\"(a\") ; false",
        "glob.match(\"*.github.com\", [\".\"], \"api.github.com\") ; true",
        "glob.match(\"*.github.com\", [\".\"], \"api.cdn.github.com\") ; false",
        "glob.match(\"**.github.com\", [\".\"], \"api.cdn.github.com\") ; true",
        "glob.match(\"*\", [], \"foo.bar\") ; false",
        "glob.match(\"*\", null, \"foo.bar\") ; true",
        "glob.match(\"{cat,bat,[fr]at}\", [], \"rat\") ; true",
        "glob.match(\"[!a-c]at\", [], \"bat\") ; false",
        "net.cidr_contains(\"10.0.0.0/8\", \"10.1.2.3\") ; true",
        "net.cidr_contains(\"10.0.0.0/8\", \"10.1.0.0/16\") ; true",
        "net.cidr_contains(\"2001:db8::/32\", \"2001:db8:1::1\") ; true",
        "net.cidr_intersects(\"10.0.0.0/8\", \"11.0.0.0/8\") ; false",
        "net.cidr_is_valid(\"10.0.0.0/33\") ; false",
        "net.cidr_expand(\"192.168.0.0/31\") ; [\"192.168.0.0\",\"192.168.0.1\"]",
        "net.cidr_merge([\"192.168.0.0/25\", \"192.168.0.128/25\"]) ; [\"192.168.0.0/24\"]",
        "net.cidr_merge([\"2001:db8::/64\", \"2001:db8::1/128\"]) ; [\"2001:db8::/64\"]",
        "net.cidr_contains_matches({\"a\": \"10.0.0.0/8\"}, [\"10.0.0.1\", \"11.0.0.1\"]) ; [[\"a\",0]]",
        "semver.compare(\"1.2.3\", \"1.10.0\") ; -1",
        "semver.compare(\"1.0.0-alpha\", \"1.0.0\") ; -1",
        "semver.compare(\"1.0.0-alpha.1\", \"1.0.0-alpha.beta\") ; -1",
        "semver.is_valid(\"v1.0.0\") ; false",
        "units.parse(\"10Ki\") ; 10240",
        "units.parse(\"1m\") ; 0.0010000000",
        "units.parse(\"1.5G\") ; 1500000000",
        "units.parse_bytes(\"1.5KiB\") ; 1536",
        "units.parse_bytes(\"10mb\") ; 10000000",
      })
  void evaluatesAsOpaDoes(String expr, String json) throws Exception {
    assertThat(Expressions.eval(expr)).isEqualTo(json);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = ';',
      value = {
        "net.cidr_expand(\"192.168.1.1/33\") ; eval_builtin_error: net.cidr_expand: invalid CIDR address: 192.168.1.1/33",
        "net.cidr_merge([\"::1\"]) ; eval_builtin_error: net.cidr_merge: IPv6 invalid: needs prefix length",
        "net.cidr_contains(\"10.0.0.0/8\", \"x\") ; eval_builtin_error: net.cidr_contains: not a valid textual representation of an IP address or CIDR: x",
        "units.parse(\"1 k\") ; eval_builtin_error: units.parse: units.parse: spaces not allowed in resource strings",
        "units.parse_bytes(\"1xb\") ; eval_builtin_error: units.parse_bytes: units.parse_bytes: byte unit xb not recognized",
        "semver.compare(\"1\", \"1.0.0\") ; eval_type_error: semver.compare: operand 1 string 1 is not a valid SemVer",
      })
  void rejectsBadOperandsWithOpasMessages(String expr, String message) throws Exception {
    assertThat(Expressions.error(expr)).isEqualTo(message);
  }
}
