package dev.agentcompute.codemode;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.ToLongFunction;

/**
 * The limit fields by name, in declaration order: their validation and their text form for command
 * lines and configuration files ({@link Limits#withSetting}).
 */
final class LimitSettings {

  private LimitSettings() {}

  /** One field: its Go-style name, the sign of its value and how text sets it. */
  record Field(String name, ToLongFunction<Limits> signum, BiConsumer<Limits.Fields, String> set) {
    long sign(Limits l) {
      return signum.applyAsLong(l);
    }
  }

  static final List<Field> FIELDS =
      List.of(
          count("MaxSourceBytes", Limits::maxSourceBytes, (f, v) -> f.maxSourceBytes = v),
          count("MaxExecutionSteps", Limits::maxExecutionSteps, (f, v) -> f.maxExecutionSteps = v),
          duration("MaxExecutionTime", Limits::maxExecutionTime, (f, v) -> f.maxExecutionTime = v),
          count("MaxNativeCalls", Limits::maxNativeCalls, (f, v) -> f.maxNativeCalls = v),
          count("MaxValueDepth", Limits::maxValueDepth, (f, v) -> f.maxValueDepth = v),
          count("MaxValueBytes", Limits::maxValueBytes, (f, v) -> f.maxValueBytes = v),
          count(
              "MaxIntermediateValueBytes",
              Limits::maxIntermediateValueBytes,
              (f, v) -> f.maxIntermediateValueBytes = v),
          count(
              "MaxSearchQueryBytes",
              Limits::maxSearchQueryBytes,
              (f, v) -> f.maxSearchQueryBytes = v),
          count("MaxSearchResults", Limits::maxSearchResults, (f, v) -> f.maxSearchResults = v),
          count(
              "MaxConcurrentExecutions",
              Limits::maxConcurrentExecutions,
              (f, v) -> f.maxConcurrentExecutions = v),
          count(
              "MaxWorkerMemoryBytes",
              Limits::maxWorkerMemoryBytes,
              (f, v) -> f.maxWorkerMemoryBytes = v),
          count(
              "MaxExecutionsPerWorker",
              Limits::maxExecutionsPerWorker,
              (f, v) -> f.maxExecutionsPerWorker = v),
          count(
              "MaxConcurrentExecutionsPerSubject",
              Limits::maxConcurrentExecutionsPerSubject,
              (f, v) -> f.maxConcurrentExecutionsPerSubject = v),
          duration("MaxSlotWait", Limits::maxSlotWait, (f, v) -> f.maxSlotWait = v),
          duration(
              "MaxConfirmationWait",
              Limits::maxConfirmationWait,
              (f, v) -> f.maxConfirmationWait = v),
          duration(
              "MaxWorkerIdleTime", Limits::maxWorkerIdleTime, (f, v) -> f.maxWorkerIdleTime = v));

  static Limits apply(Limits base, String name, String value) {
    String key = name.toLowerCase(Locale.ROOT);
    for (Field f : FIELDS) {
      if (f.name().toLowerCase(Locale.ROOT).equals(key)) {
        Limits.Fields fields = new Limits.Fields(base);
        f.set().accept(fields, value);
        return fields.build();
      }
    }
    throw new IllegalArgumentException(
        "unknown limit '"
            + name
            + "' (expected one of "
            + String.join(", ", FIELDS.stream().map(Field::name).toList())
            + ")");
  }

  private interface LongSetter {
    void set(Limits.Fields f, long v);
  }

  private interface DurationSetter {
    void set(Limits.Fields f, Duration v);
  }

  private static Field count(String name, ToLongFunction<Limits> get, LongSetter set) {
    return new Field(
        name, l -> Long.signum(get.applyAsLong(l)), (f, text) -> set.set(f, parseLong(name, text)));
  }

  private static Field duration(
      String name, java.util.function.Function<Limits, Duration> get, DurationSetter set) {
    return new Field(
        name,
        l -> get.apply(l).compareTo(Duration.ZERO),
        (f, text) -> set.set(f, parseDuration(name, text)));
  }

  private static long parseLong(String name, String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "limit " + name + ": value '" + value + "' is not an integer");
    }
  }

  private static Duration parseDuration(String name, String text) {
    String t = text.trim();
    try {
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      } else if (t.endsWith("s")) {
        return Duration.ofMillis(
            Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1000));
      } else if (t.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
      }
      return Duration.ofMillis(Long.parseLong(t));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "limit " + name + ": '" + text + "' is not a duration like 250ms or 5s");
    }
  }
}
