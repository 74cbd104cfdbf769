package dev.agentcompute.starlark.lib.time;

import dev.agentcompute.starlark.eval.Builtin;
import dev.agentcompute.starlark.eval.Comparable;
import dev.agentcompute.starlark.eval.Comparison;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.HasAttrs;
import dev.agentcompute.starlark.eval.HasBinary;
import dev.agentcompute.starlark.eval.Immutable;
import dev.agentcompute.starlark.eval.Module;
import dev.agentcompute.starlark.eval.Operators;
import dev.agentcompute.starlark.eval.StarlarkFloat;
import dev.agentcompute.starlark.eval.StarlarkInt;
import dev.agentcompute.starlark.eval.StarlarkString;
import dev.agentcompute.starlark.eval.Value;
import dev.agentcompute.starlark.syntax.Token;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * starlark-go's lib/time: durations and times with Go's formatting, parsing and arithmetic. The
 * conformance test mode offers it (feature {@code time}); CodeMode programs never see this module.
 */
public final class TimeModule {
  private TimeModule() {}

  static final String RFC3339 = "2006-01-02T15:04:05Z07:00";
  private static final long NS = 1;
  private static final long US = 1_000;
  private static final long MS = 1_000_000;
  private static final long SEC = 1_000_000_000L;
  private static final long MIN = 60 * SEC;
  private static final long HOUR = 60 * MIN;

  /** A new {@code time} module. */
  public static Module create() {
    Map<String, Value> m = new LinkedHashMap<>();
    m.put(
        "from_timestamp",
        new Builtin(
            "from_timestamp",
            (th, fn, args, named) -> {
              if (!named.isEmpty() || args.length < 1 || args.length > 2) {
                throw new EvalException("from_timestamp: want (sec[, nsec])");
              }
              long sec = toLong(args[0], "from_timestamp");
              long nsec = args.length > 1 ? toLong(args[1], "from_timestamp") : 0;
              return new TimeValue(
                  ZonedDateTime.ofInstant(Instant.ofEpochSecond(sec, nsec), ZoneId.of("UTC")));
            }));
    m.put(
        "is_valid_timezone",
        new Builtin(
            "is_valid_timezone",
            (th, fn, args, named) -> {
              if (args.length != 1 || !(args[0] instanceof StarlarkString s)) {
                throw new EvalException("is_valid_timezone: want a string");
              }
              try {
                zone(s.value());
                return dev.agentcompute.starlark.eval.Bool.TRUE;
              } catch (EvalException e) {
                return dev.agentcompute.starlark.eval.Bool.FALSE;
              }
            }));
    m.put("now", new Builtin("now", (th, fn, args, named) -> new TimeValue(ZonedDateTime.now())));
    m.put(
        "parse_duration",
        new Builtin(
            "parse_duration",
            (th, fn, args, named) -> {
              if (args.length != 1) {
                throw new EvalException(
                    "parse_duration: got " + args.length + " arguments, want 1");
              }
              if (args[0] instanceof DurationValue d) {
                return d;
              }
              if (!(args[0] instanceof StarlarkString s)) {
                throw new EvalException(
                    "parse_duration: for parameter d: got " + args[0].type() + ", want string");
              }
              return new DurationValue(parseDuration(s.value()));
            }));
    m.put(
        "parse_time",
        new Builtin(
            "parse_time",
            (th, fn, args, named) -> {
              String x = null;
              String format = RFC3339;
              String location = "UTC";
              if (args.length > 0) {
                x = str(args[0], "parse_time");
              }
              if (args.length > 1) {
                format = str(args[1], "parse_time");
              }
              if (args.length > 2) {
                location = str(args[2], "parse_time");
              }
              for (Map.Entry<String, Value> e : named) {
                switch (e.getKey()) {
                  case "x" -> x = str(e.getValue(), "parse_time");
                  case "format" -> format = str(e.getValue(), "parse_time");
                  case "location" -> location = str(e.getValue(), "parse_time");
                  default ->
                      throw new EvalException(
                          "parse_time: unexpected keyword argument " + e.getKey());
                }
              }
              if (x == null) {
                throw new EvalException("parse_time: missing argument for x");
              }
              try {
                return new TimeValue(GoTimeLayout.parse(format, x, zone(location)));
              } catch (IllegalArgumentException | java.time.DateTimeException e) {
                throw new EvalException(e.getMessage());
              }
            }));
    m.put(
        "time",
        new Builtin(
            "time",
            (th, fn, args, named) -> {
              if (args.length > 0) {
                throw new EvalException("time: unexpected positional arguments");
              }
              int[] f = {0, 1, 1, 0, 0, 0, 0};
              String[] names = {"year", "month", "day", "hour", "minute", "second", "nanosecond"};
              String location = "";
              for (Map.Entry<String, Value> e : named) {
                if (e.getKey().equals("location")) {
                  location = str(e.getValue(), "time");
                  continue;
                }
                int i = List.of(names).indexOf(e.getKey());
                if (i < 0) {
                  throw new EvalException("time: unexpected keyword argument " + e.getKey());
                }
                f[i] = (int) toLong(e.getValue(), "time");
              }
              try {
                LocalDateTime ldt =
                    LocalDateTime.of(f[0], 1, 1, 0, 0)
                        .plusMonths(f[1] - 1L)
                        .plusDays(f[2] - 1L)
                        .plusHours(f[3])
                        .plusMinutes(f[4])
                        .plusSeconds(f[5])
                        .plusNanos(f[6]);
                return new TimeValue(ZonedDateTime.of(ldt, zone(location)));
              } catch (java.time.DateTimeException e) {
                throw new EvalException("time: " + e.getMessage());
              }
            }));
    m.put("nanosecond", new DurationValue(NS));
    m.put("microsecond", new DurationValue(US));
    m.put("millisecond", new DurationValue(MS));
    m.put("second", new DurationValue(SEC));
    m.put("minute", new DurationValue(MIN));
    m.put("hour", new DurationValue(HOUR));
    Module mod = new Module("time", m);
    mod.freeze();
    return mod;
  }

  private static String str(Value v, String fn) throws EvalException {
    if (v instanceof StarlarkString s) {
      return s.value();
    }
    throw new EvalException(fn + ": got " + v.type() + ", want string");
  }

  private static long toLong(Value v, String fn) throws EvalException {
    if (v instanceof StarlarkInt i && i.isLong()) {
      return i.longValue();
    }
    throw new EvalException(fn + ": got " + v.type() + ", want int");
  }

  static ZoneId zone(String name) throws EvalException {
    if (name.isEmpty() || name.equals("UTC")) {
      return ZoneId.of("UTC");
    }
    if (name.equals("Local")) {
      return ZoneId.systemDefault();
    }
    try {
      return ZoneId.of(name);
    } catch (java.time.DateTimeException e) {
      throw new EvalException("unknown time zone " + name);
    }
  }

  /** Go's time.ParseDuration. */
  static long parseDuration(String orig) throws EvalException {
    String s = orig;
    EvalException invalid = new EvalException("time: invalid duration \"" + orig + "\"");
    boolean neg = false;
    if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
      neg = s.charAt(0) == '-';
      s = s.substring(1);
    }
    if (s.equals("0")) {
      return 0;
    }
    if (s.isEmpty()) {
      throw invalid;
    }
    double total = 0;
    int i = 0;
    while (i < s.length()) {
      int start = i;
      while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
        i++;
      }
      String num = s.substring(start, i);
      if (num.isEmpty() || num.equals(".")) {
        throw invalid;
      }
      int u = i;
      while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
        i++;
      }
      String unit = s.substring(u, i);
      if (unit.isEmpty()) {
        throw new EvalException("time: missing unit in duration \"" + orig + "\"");
      }
      long mult =
          switch (unit) {
            case "ns" -> NS;
            case "us", "µs", "μs" -> US;
            case "ms" -> MS;
            case "s" -> SEC;
            case "m" -> MIN;
            case "h" -> HOUR;
            default ->
                throw new EvalException(
                    "time: unknown unit \"" + unit + "\" in duration \"" + orig + "\"");
          };
      total += Double.parseDouble(num) * mult;
    }
    long r = Math.round(total);
    return neg ? -r : r;
  }

  /** Go's Duration.String(). */
  static String formatDuration(long d) {
    if (d == 0) {
      return "0s";
    }
    boolean neg = d < 0;
    long u = Math.abs(d);
    StringBuilder sb = new StringBuilder();
    if (u < SEC) {
      String unit;
      int prec;
      if (u < US) {
        unit = "ns";
        prec = 0;
      } else if (u < MS) {
        unit = "µs";
        prec = 3;
      } else {
        unit = "ms";
        prec = 6;
      }
      sb.append(frac(u, prec)).append(unit);
    } else {
      String secs = frac(u, 9);
      long total = u / SEC;
      long h = total / 3600;
      long m = (total / 60) % 60;
      long sec = total % 60;
      String fracPart = secs.contains(".") ? secs.substring(secs.indexOf('.')) : "";
      if (h > 0) {
        sb.append(h).append('h').append(m).append('m');
      } else if (total >= 60) {
        sb.append(m).append('m');
      }
      sb.append(sec).append(fracPart).append('s');
    }
    return (neg ? "-" : "") + sb;
  }

  private static String frac(long v, int prec) {
    long pow = 1;
    for (int i = 0; i < prec; i++) {
      pow *= 10;
    }
    long whole = v / pow;
    long f = v % pow;
    if (f == 0) {
      return Long.toString(whole);
    }
    String digits = String.format("%0" + prec + "d", f).replaceAll("0+$", "");
    return whole + "." + digits;
  }

  /** A time.duration: nanoseconds. */
  static final class DurationValue implements HasAttrs, HasBinary, Comparable, Immutable {
    final long nanos;

    DurationValue(long nanos) {
      this.nanos = nanos;
    }

    @Override
    public Value attr(String name) {
      return switch (name) {
        case "hours" -> StarlarkFloat.of((double) nanos / HOUR);
        case "minutes" -> StarlarkFloat.of((double) nanos / MIN);
        case "seconds" -> StarlarkFloat.of((double) nanos / SEC);
        case "milliseconds" -> StarlarkInt.of(nanos / MS);
        case "microseconds" -> StarlarkInt.of(nanos / US);
        case "nanoseconds" -> StarlarkInt.of(nanos);
        default -> null;
      };
    }

    @Override
    public List<String> attrNames() {
      return List.of("hours", "microseconds", "milliseconds", "minutes", "nanoseconds", "seconds");
    }

    @Override
    public Value binary(Token op, Value y, boolean thisOnRight) throws EvalException {
      long x = nanos;
      switch (op) {
        case PLUS -> {
          if (y instanceof DurationValue d) {
            return new DurationValue(x + d.nanos);
          }
          if (y instanceof TimeValue t) {
            return new TimeValue(t.t.plusNanos(x));
          }
        }
        case MINUS -> {
          if (y instanceof DurationValue d) {
            return new DurationValue(thisOnRight ? d.nanos - x : x - d.nanos);
          }
        }
        case SLASH -> {
          if (y instanceof DurationValue d) {
            if (d.nanos == 0 || (thisOnRight && x == 0)) {
              throw new EvalException("time.duration division by zero");
            }
            return StarlarkFloat.of(thisOnRight ? (double) d.nanos / x : (double) x / d.nanos);
          }
          if (y instanceof StarlarkInt i) {
            if (thisOnRight) {
              throw new EvalException("unsupported operation");
            }
            long n = i.longValue();
            if (n == 0) {
              throw new EvalException("time.duration division by zero");
            }
            return new DurationValue(x / n);
          }
          if (y instanceof StarlarkFloat f) {
            if (thisOnRight) {
              throw new EvalException("unsupported operation");
            }
            if (f.value() == 0) {
              throw new EvalException("time.duration division by zero");
            }
            return new DurationValue((long) (x / f.value()));
          }
        }
        case SLASHSLASH -> {
          if (y instanceof DurationValue d) {
            if (d.nanos == 0 || (thisOnRight && x == 0)) {
              throw new EvalException("time.duration division by zero");
            }
            return StarlarkInt.of(thisOnRight ? d.nanos / x : x / d.nanos);
          }
        }
        case STAR -> {
          if (y instanceof StarlarkInt i) {
            return new DurationValue(x * i.longValue());
          }
        }
        default -> {}
      }
      return null;
    }

    @Override
    public boolean compareSameType(Token op, Value y, Comparison cmp) {
      return Operators.threeway(op, Long.compare(nanos, ((DurationValue) y).nanos));
    }

    @Override
    public String type() {
      return "time.duration";
    }

    @Override
    public boolean truth() {
      return nanos != 0;
    }

    @Override
    public int hash() {
      return Long.hashCode(nanos);
    }

    @Override
    public void repr(StringBuilder sb) {
      sb.append(formatDuration(nanos));
    }

    @Override
    public String toString() {
      return formatDuration(nanos);
    }
  }

  /** A time.time: an instant with a zone. */
  static final class TimeValue implements HasAttrs, HasBinary, Comparable, Immutable {
    final ZonedDateTime t;

    TimeValue(ZonedDateTime t) {
      this.t = t;
    }

    private long unixNanos() {
      Instant i = t.toInstant();
      return i.getEpochSecond() * SEC + i.getNano();
    }

    @Override
    public Value attr(String name) {
      return switch (name) {
        case "year" -> StarlarkInt.of(t.getYear());
        case "month" -> StarlarkInt.of(t.getMonthValue());
        case "day" -> StarlarkInt.of(t.getDayOfMonth());
        case "hour" -> StarlarkInt.of(t.getHour());
        case "minute" -> StarlarkInt.of(t.getMinute());
        case "second" -> StarlarkInt.of(t.getSecond());
        case "nanosecond" -> StarlarkInt.of(t.getNano());
        case "unix" -> StarlarkInt.of(t.toEpochSecond());
        case "unix_nano" -> StarlarkInt.of(unixNanos());
        case "in_location" ->
            new Builtin(
                    "in_location",
                    (th, fn, args, named) -> {
                      if (args.length != 1 || !(args[0] instanceof StarlarkString s)) {
                        throw new EvalException("in_location: want a location string");
                      }
                      return new TimeValue(t.withZoneSameInstant(zone(s.value())));
                    })
                .bindTo(this);
        case "format" ->
            new Builtin(
                    "format",
                    (th, fn, args, named) -> {
                      if (args.length != 1 || !(args[0] instanceof StarlarkString s)) {
                        throw new EvalException("format: want a layout string");
                      }
                      return StarlarkString.of(GoTimeLayout.format(t, s.value()));
                    })
                .bindTo(this);
        default -> null;
      };
    }

    @Override
    public List<String> attrNames() {
      return List.of(
          "day",
          "format",
          "hour",
          "in_location",
          "minute",
          "month",
          "nanosecond",
          "second",
          "unix",
          "unix_nano",
          "year");
    }

    @Override
    public Value binary(Token op, Value y, boolean thisOnRight) {
      if (op == Token.PLUS && y instanceof DurationValue d) {
        return new TimeValue(t.plusNanos(d.nanos));
      }
      if (op == Token.MINUS && !thisOnRight) {
        if (y instanceof DurationValue d) {
          return new TimeValue(t.minusNanos(d.nanos));
        }
        if (y instanceof TimeValue o) {
          return new DurationValue(unixNanos() - o.unixNanos());
        }
      }
      return null;
    }

    @Override
    public boolean compareSameType(Token op, Value y, Comparison cmp) {
      return Operators.threeway(op, t.toInstant().compareTo(((TimeValue) y).t.toInstant()));
    }

    @Override
    public String type() {
      return "time.time";
    }

    @Override
    public boolean truth() {
      return !t.toInstant()
          .equals(ZonedDateTime.of(1, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC).toInstant());
    }

    @Override
    public int hash() {
      return t.toInstant().hashCode();
    }

    @Override
    public void repr(StringBuilder sb) {
      sb.append(GoTimeLayout.format(t, "2006-01-02 15:04:05.999999999 -0700 MST"));
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder();
      repr(sb);
      return sb.toString();
    }
  }
}
