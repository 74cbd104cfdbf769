package dev.agentcompute.rego.compile;

import dev.agentcompute.rego.syntax.Position;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoText;
import dev.agentcompute.rego.value.RegoValue;
import dev.agentcompute.rego.value.Values;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

/**
 * A node of the virtual document tree under {@code data}: packages and rule reference heads. A node
 * holds the rules whose ground reference ends exactly here, and its children by key. What the rules
 * here produce is its {@link Kind}.
 */
public final class RuleNode {

  public enum Kind {
    /** Only children (a package or the ground prefix of deeper rules). */
    NONE,
    /** Complete rules: one value (with optional default). */
    COMPLETE,
    /** {@code contains} rules with a ground reference: a set. */
    SET,
    /** Rules with non-ground reference steps: an object built from their solutions. */
    OBJECT,
    /** Functions. */
    FUNCTION
  }

  private final RegoValue key;
  private final RuleNode parent;
  private final String path;
  private final TreeMap<RegoValue, RuleNode> children = new TreeMap<>(Values::compare);
  private final List<CompiledRule> rules = new ArrayList<>();
  private Kind kind = Kind.NONE;
  private Clause defaultClause;
  private int arity = -1;
  private int index = -1;
  private RegoValue constant;
  private Position firstPos;

  RuleNode(RegoValue key, RuleNode parent) {
    this.key = key;
    this.parent = parent;
    this.path = parent == null ? "data" : parent.path + step(key);
  }

  private static String step(RegoValue key) {
    if (key instanceof RegoString s && isIdentifier(s.value())) {
      return "." + s.value();
    }
    return "[" + RegoText.of(key) + "]";
  }

  private static boolean isIdentifier(String s) {
    if (s.isEmpty() || !(Character.isLetter(s.charAt(0)) || s.charAt(0) == '_')) {
      return false;
    }
    for (int i = 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(Character.isLetterOrDigit(c) || c == '_')) {
        return false;
      }
    }
    return true;
  }

  RuleNode child(RegoValue k) {
    return children.computeIfAbsent(k, x -> new RuleNode(x, this));
  }

  void notePosition(Position p) {
    if (firstPos == null) {
      firstPos = p;
    }
  }

  /** Where the first rule placed here was written (null for inner nodes). */
  public Position position() {
    return firstPos;
  }

  void setKind(Kind k) {
    this.kind = k;
  }

  void addRule(CompiledRule r) {
    rules.add(r);
  }

  void setDefault(Clause c) {
    this.defaultClause = c;
  }

  void setArity(int n) {
    this.arity = n;
  }

  void setConstant(RegoValue v) {
    this.constant = v;
  }

  void setIndex(int i) {
    this.index = i;
  }

  /** The node's key under its parent (null for the root). */
  public RegoValue key() {
    return key;
  }

  public RuleNode parent() {
    return parent;
  }

  /** The reference text, e.g. {@code data.pkg.allow}. */
  public String path() {
    return path;
  }

  public Kind kind() {
    return kind;
  }

  /** The child under {@code k}, or null. */
  public RuleNode get(RegoValue k) {
    return children.get(k);
  }

  /** Children in key order. */
  public Collection<RuleNode> children() {
    return Collections.unmodifiableCollection(children.values());
  }

  public boolean hasChildren() {
    return !children.isEmpty();
  }

  public List<CompiledRule> rules() {
    return Collections.unmodifiableList(rules);
  }

  /** The default clause ({@code default p := v}), or null. */
  public Clause defaultClause() {
    return defaultClause;
  }

  /** A function's parameter count; -1 for other nodes. */
  public int arity() {
    return arity;
  }

  /** A dense number per node with rules, for per-evaluation caches. */
  public int index() {
    return index;
  }

  /**
   * The value every clause of every rule here produces when they all produce the same constant
   * ({@code allow if ...} rules): the first solution then decides, as OPA's early exit does.
   */
  public RegoValue constant() {
    return constant;
  }

  @Override
  public String toString() {
    return path;
  }
}
