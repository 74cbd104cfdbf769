package dev.agentcompute.rego.value;

/**
 * A Rego value: null, boolean, number, string, array, set or object. Values are immutable and safe
 * to share between threads and evaluations. Equality and ordering follow OPA: numbers compare by
 * value ({@code 1 == 1.0}), and every pair of values is ordered (null &lt; boolean &lt; number &lt;
 * string &lt; array &lt; object &lt; set), which is also the iteration order of sets and object
 * keys.
 */
public sealed interface RegoValue extends Comparable<RegoValue>
    permits RegoNull, RegoBoolean, RegoNumber, RegoString, RegoArray, RegoSet, RegoObject {

  /** OPA's type name: {@code null}, {@code boolean}, {@code number}, {@code string}, ... */
  String typeName();

  /** The rank of this value's type in the total order. */
  int typeOrder();

  @Override
  default int compareTo(RegoValue other) {
    return Values.compare(this, other);
  }

  /** Truthiness in a rule body: every defined value except {@code false} succeeds. */
  default boolean isFalse() {
    return this == RegoBoolean.FALSE;
  }
}
