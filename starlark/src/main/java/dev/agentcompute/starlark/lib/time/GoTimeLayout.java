package dev.agentcompute.starlark.lib.time;

import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.Month;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Go's reference-time layouts ("2006-01-02T15:04:05Z07:00") for formatting and parsing, as used by
 * starlark-go's lib/time. Covers the standard elements: month and day names, numeric date and clock
 * fields, AM/PM, zone names and offsets, and fractional seconds.
 */
final class GoTimeLayout {
  private GoTimeLayout() {}

  private record Elem(String std, String literal) {}

  private static List<Elem> split(String layout) {
    List<Elem> out = new ArrayList<>();
    StringBuilder lit = new StringBuilder();
    int i = 0;
    while (i < layout.length()) {
      String std = stdAt(layout, i);
      if (std == null) {
        lit.append(layout.charAt(i++));
        continue;
      }
      if (!lit.isEmpty()) {
        out.add(new Elem(null, lit.toString()));
        lit.setLength(0);
      }
      out.add(new Elem(std, null));
      i += std.length();
    }
    if (!lit.isEmpty()) {
      out.add(new Elem(null, lit.toString()));
    }
    return out;
  }

  private static final String[] STDS = {
    "January",
    "Jan",
    "Monday",
    "Mon",
    "MST",
    "2006",
    "-07:00:00",
    "-070000",
    "-07:00",
    "-0700",
    "-07",
    "Z07:00:00",
    "Z070000",
    "Z07:00",
    "Z0700",
    "Z07",
    "002",
    "01",
    "02",
    "03",
    "04",
    "05",
    "06",
    "15",
    "_2",
    "PM",
    "pm",
    "1",
    "2",
    "3",
    "4",
    "5"
  };

  private static String stdAt(String s, int i) {
    char c = s.charAt(i);
    if ((c == '.' || c == ',')
        && i + 1 < s.length()
        && (s.charAt(i + 1) == '0' || s.charAt(i + 1) == '9')) {
      char d = s.charAt(i + 1);
      int j = i + 1;
      while (j < s.length() && s.charAt(j) == d) {
        j++;
      }
      if (j >= s.length() || !Character.isDigit(s.charAt(j))) {
        return s.substring(i, j);
      }
    }
    for (String std : STDS) {
      if (s.startsWith(std, i)) {
        if ((std.equals("Jan") || std.equals("Mon"))
            && i + 3 < s.length()
            && Character.isLowerCase(s.charAt(i + 3))
            && !s.startsWith("January", i)
            && !s.startsWith("Monday", i)) {
          continue;
        }
        return std;
      }
    }
    return null;
  }

  static String format(ZonedDateTime t, String layout) {
    StringBuilder sb = new StringBuilder();
    for (Elem e : split(layout)) {
      if (e.literal() != null) {
        sb.append(e.literal());
        continue;
      }
      String s = e.std();
      switch (s) {
        case "January" -> sb.append(t.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
        case "Jan" -> sb.append(t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
        case "Monday" -> sb.append(t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
        case "Mon" -> sb.append(t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
        case "MST" -> sb.append(zoneAbbrev(t));
        case "2006" -> sb.append(String.format("%04d", t.getYear()));
        case "06" -> sb.append(String.format("%02d", t.getYear() % 100));
        case "01" -> sb.append(String.format("%02d", t.getMonthValue()));
        case "1" -> sb.append(t.getMonthValue());
        case "02" -> sb.append(String.format("%02d", t.getDayOfMonth()));
        case "2" -> sb.append(t.getDayOfMonth());
        case "_2" -> sb.append(String.format("%2d", t.getDayOfMonth()));
        case "002" -> sb.append(String.format("%03d", t.getDayOfYear()));
        case "15" -> sb.append(String.format("%02d", t.getHour()));
        case "03" -> sb.append(String.format("%02d", hour12(t)));
        case "3" -> sb.append(hour12(t));
        case "04" -> sb.append(String.format("%02d", t.getMinute()));
        case "4" -> sb.append(t.getMinute());
        case "05" -> sb.append(String.format("%02d", t.getSecond()));
        case "5" -> sb.append(t.getSecond());
        case "PM" -> sb.append(t.getHour() >= 12 ? "PM" : "AM");
        case "pm" -> sb.append(t.getHour() >= 12 ? "pm" : "am");
        default -> {
          if (s.charAt(0) == '.' || s.charAt(0) == ',') {
            fraction(sb, t.getNano(), s);
          } else {
            offset(sb, t.getOffset().getTotalSeconds(), s);
          }
        }
      }
    }
    return sb.toString();
  }

  private static int hour12(ZonedDateTime t) {
    int h = t.getHour() % 12;
    return h == 0 ? 12 : h;
  }

  static String zoneAbbrev(ZonedDateTime t) {
    if (t.getZone().equals(ZoneOffset.UTC) || t.getZone().getId().equals("UTC")) {
      return "UTC";
    }
    String name = t.getZone().getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
    if (t.getZone() instanceof ZoneOffset || name.startsWith("GMT") || name.contains("/")) {
      int secs = t.getOffset().getTotalSeconds();
      StringBuilder sb = new StringBuilder();
      offset(sb, secs, "-0700");
      return sb.toString();
    }
    java.time.format.DateTimeFormatter f =
        java.time.format.DateTimeFormatter.ofPattern("zzz", Locale.ENGLISH);
    return t.format(f);
  }

  private static void fraction(StringBuilder sb, int nanos, String std) {
    int digits = std.length() - 1;
    String all = String.format("%09d", nanos).substring(0, Math.min(9, digits));
    if (std.charAt(1) == '9') {
      int end = all.length();
      while (end > 0 && all.charAt(end - 1) == '0') {
        end--;
      }
      if (end == 0) {
        return;
      }
      sb.append(std.charAt(0)).append(all, 0, end);
    } else {
      sb.append(std.charAt(0)).append(all);
    }
  }

  private static void offset(StringBuilder sb, int secs, String std) {
    if (std.charAt(0) == 'Z' && secs == 0) {
      sb.append('Z');
      return;
    }
    int abs = Math.abs(secs);
    sb.append(secs < 0 ? '-' : '+');
    sb.append(String.format("%02d", abs / 3600));
    String rest = std.substring(3);
    boolean colon = rest.startsWith(":");
    if (rest.isEmpty()) {
      return;
    }
    if (colon) {
      sb.append(':');
    }
    sb.append(String.format("%02d", (abs / 60) % 60));
    if (rest.length() > 3) {
      if (colon) {
        sb.append(':');
      }
      sb.append(String.format("%02d", abs % 60));
    }
  }

  /** Parses {@code value} with a Go layout; the zone defaults to {@code loc}. */
  static ZonedDateTime parse(String layout, String value, ZoneId loc) {
    int year = 1;
    int month = 1;
    int day = 1;
    int hour = 0;
    int min = 0;
    int sec = 0;
    int nanos = 0;
    boolean pm = false;
    boolean hasAmPm = false;
    ZoneOffset off = null;
    int p = 0;
    List<Elem> elems = split(layout);
    for (int k = 0; k < elems.size(); k++) {
      Elem e = elems.get(k);
      if (e.literal() != null) {
        if (!value.startsWith(e.literal(), p)) {
          throw bad(layout, value);
        }
        p += e.literal().length();
        continue;
      }
      String s = e.std();
      switch (s) {
        case "2006" -> {
          year = num(value, p, 4, 4, layout);
          p += 4;
        }
        case "06" -> {
          year = 1900 + num(value, p, 2, 2, layout);
          if (year < 1969) {
            year += 100;
          }
          p += 2;
        }
        case "01", "02", "15", "03", "04", "05" -> {
          int v = num(value, p, 2, 2, layout);
          p += 2;
          switch (s) {
            case "01" -> month = v;
            case "02" -> day = v;
            case "15", "03" -> hour = v;
            case "04" -> min = v;
            default -> sec = v;
          }
        }
        case "1", "2", "3", "4", "5", "_2" -> {
          if (s.equals("_2") && p < value.length() && value.charAt(p) == ' ') {
            p++;
          }
          int len = digitsAt(value, p, 2);
          int v = num(value, p, 1, len, layout);
          p += len;
          switch (s) {
            case "1" -> month = v;
            case "2", "_2" -> day = v;
            case "3" -> hour = v;
            case "4" -> min = v;
            default -> sec = v;
          }
        }
        case "PM", "pm" -> {
          String ap = value.substring(p, Math.min(value.length(), p + 2)).toUpperCase(Locale.ROOT);
          if (!ap.equals("AM") && !ap.equals("PM")) {
            throw bad(layout, value);
          }
          hasAmPm = true;
          pm = ap.equals("PM");
          p += 2;
        }
        case "January", "Jan" -> {
          int found = -1;
          for (Month m : Month.values()) {
            String name =
                m.getDisplayName(
                    s.equals("Jan") ? TextStyle.SHORT : TextStyle.FULL, Locale.ENGLISH);
            if (value.startsWith(name, p)) {
              found = m.getValue();
              p += name.length();
              break;
            }
          }
          if (found < 0) {
            throw bad(layout, value);
          }
          month = found;
        }
        case "Monday", "Mon" -> {
          boolean ok = false;
          for (DayOfWeek d : DayOfWeek.values()) {
            String name =
                d.getDisplayName(
                    s.equals("Mon") ? TextStyle.SHORT : TextStyle.FULL, Locale.ENGLISH);
            if (value.startsWith(name, p)) {
              p += name.length();
              ok = true;
              break;
            }
          }
          if (!ok) {
            throw bad(layout, value);
          }
        }
        case "MST" -> {
          int q = p;
          while (q < value.length() && Character.isUpperCase(value.charAt(q))) {
            q++;
          }
          if (q - p < 3) {
            throw bad(layout, value);
          }
          if (value.substring(p, q).equals("UTC")) {
            off = ZoneOffset.UTC;
          }
          p = q;
        }
        case "002" -> {
          num(value, p, 3, 3, layout);
          p += 3;
        }
        default -> {
          if (s.charAt(0) == '.' || s.charAt(0) == ',') {
            // handled below together with optional fractions
            if (p < value.length() && (value.charAt(p) == '.' || value.charAt(p) == ',')) {
              int q = p + 1;
              while (q < value.length() && Character.isDigit(value.charAt(q))) {
                q++;
              }
              nanos = nanosOf(value.substring(p + 1, q));
              p = q;
            } else if (s.charAt(1) == '0') {
              throw bad(layout, value);
            }
          } else {
            if (s.charAt(0) == 'Z' && p < value.length() && value.charAt(p) == 'Z') {
              off = ZoneOffset.UTC;
              p++;
            } else {
              int q = p;
              if (q >= value.length() || (value.charAt(q) != '+' && value.charAt(q) != '-')) {
                throw bad(layout, value);
              }
              q++;
              while (q < value.length()
                  && (Character.isDigit(value.charAt(q)) || value.charAt(q) == ':')) {
                q++;
              }
              String o = value.substring(p, q);
              try {
                off = parseOffset(o);
              } catch (RuntimeException ex) {
                throw bad(layout, value);
              }
              p = q;
            }
          }
        }
      }
      // Go accepts a fractional second after a seconds field even if the layout has none.
      if ((s.equals("05") || s.equals("5"))
          && p < value.length()
          && value.charAt(p) == '.'
          && (k + 1 >= elems.size()
              || elems.get(k + 1).std() == null
              || elems.get(k + 1).std().charAt(0) != '.')) {
        int q = p + 1;
        while (q < value.length() && Character.isDigit(value.charAt(q))) {
          q++;
        }
        if (q > p + 1) {
          nanos = nanosOf(value.substring(p + 1, q));
          p = q;
        }
      }
    }
    if (p != value.length()) {
      throw new IllegalArgumentException(
          "parsing time \"" + value + "\": extra text: \"" + value.substring(p) + "\"");
    }
    if (hasAmPm) {
      if (hour == 12) {
        hour = 0;
      }
      if (pm) {
        hour += 12;
      }
    }
    LocalDateTime ldt = LocalDateTime.of(year, month, day, hour, min, sec, nanos);
    return off != null ? ZonedDateTime.ofLocal(ldt, off, null) : ZonedDateTime.of(ldt, loc);
  }

  private static ZoneOffset parseOffset(String o) {
    String d = o.substring(1).replace(":", "");
    int h = Integer.parseInt(d.substring(0, 2));
    int m = d.length() >= 4 ? Integer.parseInt(d.substring(2, 4)) : 0;
    int sec = d.length() >= 6 ? Integer.parseInt(d.substring(4, 6)) : 0;
    int total = h * 3600 + m * 60 + sec;
    return ZoneOffset.ofTotalSeconds(o.charAt(0) == '-' ? -total : total);
  }

  private static int nanosOf(String digits) {
    String d = (digits + "000000000").substring(0, 9);
    return Integer.parseInt(d);
  }

  private static int digitsAt(String v, int p, int max) {
    int n = 0;
    while (p + n < v.length() && n < max && Character.isDigit(v.charAt(p + n))) {
      n++;
    }
    return Math.max(n, 1);
  }

  private static int num(String v, int p, int min, int max, String layout) {
    if (p + min > v.length()) {
      throw bad(layout, v);
    }
    String d = v.substring(p, Math.min(v.length(), p + max));
    try {
      return Integer.parseInt(d);
    } catch (NumberFormatException e) {
      throw bad(layout, v);
    }
  }

  private static IllegalArgumentException bad(String layout, String value) {
    return new IllegalArgumentException(
        "parsing time \"" + value + "\" as \"" + layout + "\": cannot parse");
  }
}
