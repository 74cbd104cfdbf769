package dev.agentcompute.codemode.binding;

import dev.agentcompute.codemode.OmitEmpty;
import dev.agentcompute.codemode.OneOf;
import dev.agentcompute.codemode.StarlarkName;
import dev.agentcompute.codemode.Unsigned;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Compiles a record class into a {@link TypeNode} tree following the supported type rules (the Java
 * mapping of the Go original's reflection rules). Throws {@link TypeException} naming the offending
 * component.
 */
public final class TypeCompiler {

  /** Which side of a capability the record describes. */
  public enum Role {
    INPUT,
    OUTPUT
  }

  /** An unsupported type or component; the message names the path. */
  public static final class TypeException extends Exception {
    public TypeException(String message) {
      super(message);
    }
  }

  private final Role role;
  private final Deque<Class<?>> stack = new ArrayDeque<>();

  private TypeCompiler(Role role) {
    this.role = role;
  }

  public static TypeNode.Struct compile(Class<?> record, Role role) throws TypeException {
    if (record == null) {
      throw new TypeException(role.name().toLowerCase() + " type must not be null");
    }
    if (!record.isRecord()) {
      throw new TypeException(
          role.name().toLowerCase() + " type " + record.getName() + " must be a record");
    }
    return new TypeCompiler(role).struct(record, true);
  }

  private TypeNode.Struct struct(Class<?> type, boolean root) throws TypeException {
    if (stack.contains(type)) {
      throw new TypeException("cyclic type " + type.getName());
    }
    stack.push(type);
    try {
      RecordComponent[] components = type.getRecordComponents();
      List<TypeNode.Field> fields = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      Class<?>[] params = new Class<?>[components.length];
      for (int i = 0; i < components.length; i++) {
        RecordComponent rc = components[i];
        params[i] = rc.getType();
        String name = rc.getName();
        StarlarkName rename = rc.getAnnotation(StarlarkName.class);
        if (rename != null) {
          name = rename.value();
        }
        String where = type.getSimpleName() + "." + rc.getName();
        if (root && role == Role.INPUT) {
          if (!Names.isIdentifier(name)) {
            throw new TypeException(
                "input field "
                    + GoQuote.quote(name)
                    + " ("
                    + where
                    + ") must be a Starlark identifier that is not a keyword");
          }
        } else if (!Names.isJsonName(name)) {
          throw new TypeException(
              "field name " + GoQuote.quote(name) + " (" + where + ") is not a valid name");
        }
        if (!seen.add(name)) {
          throw new TypeException(
              "duplicate field name " + GoQuote.quote(name) + " in " + type.getName());
        }
        TypeNode node = node(rc.getAnnotatedType(), where);
        boolean omit = rc.isAnnotationPresent(OmitEmpty.class);
        if (omit && !(node instanceof TypeNode.Opt)) {
          throw new TypeException(
              role == Role.INPUT
                  ? "required input " + GoQuote.quote(name) + " cannot use omitempty"
                  : "output field " + GoQuote.quote(name) + " cannot use omitempty");
        }
        OneOf oneOf = rc.getAnnotation(OneOf.class);
        if (oneOf != null) {
          boolean str =
              node instanceof TypeNode.Str
                  || (node instanceof TypeNode.Opt o && o.elem() instanceof TypeNode.Str);
          if (!(root && role == Role.INPUT && str)) {
            throw new TypeException(
                GoQuote.quote(name)
                    + " ("
                    + where
                    + ") cannot use oneof: only root str inputs list their values");
          }
          if (oneOf.value().length == 0) {
            throw new TypeException(
                GoQuote.quote(name) + " (" + where + ") cannot use oneof without values");
          }
        }
        rc.getAccessor().setAccessible(true);
        fields.add(new TypeNode.Field(name, node, omit, rc.getAccessor()));
      }
      Constructor<?> ctor;
      try {
        ctor = type.getDeclaredConstructor(params);
        ctor.setAccessible(true);
      } catch (ReflectiveOperationException | RuntimeException e) {
        throw new TypeException(
            "record " + type.getName() + " is not accessible: " + e.getMessage());
      }
      return new TypeNode.Struct(type, ctor, List.copyOf(fields));
    } finally {
      stack.pop();
    }
  }

  private TypeNode node(AnnotatedType at, String where) throws TypeException {
    boolean nullable = hasNullable(at);
    TypeNode inner = bare(at, where);
    if (nullable) {
      if (at.getType() instanceof Class<?> c && c.isPrimitive()) {
        throw new TypeException(where + ": a primitive cannot be @Nullable");
      }
      if (inner instanceof TypeNode.Opt) {
        if (role == Role.INPUT) {
          throw new TypeException(where + ": optional may not wrap optional");
        }
        return inner;
      }
      return new TypeNode.Opt(inner, TypeNode.OptRepr.NULLABLE);
    }
    return inner;
  }

  private TypeNode bare(AnnotatedType at, String where) throws TypeException {
    Type t = at.getType();
    boolean unsigned = at.isAnnotationPresent(Unsigned.class);
    if (t instanceof Class<?> c) {
      if (unsigned && !isIntegral(c)) {
        throw new TypeException(where + ": @Unsigned applies only to byte, short, int and long");
      }
      if (c == String.class) {
        return new TypeNode.Str();
      }
      if (c == long.class || c == Long.class) {
        return unsigned
            ? new TypeNode.Int(0, Long.MAX_VALUE, TypeNode.IntRepr.ULONG)
            : new TypeNode.Int(Long.MIN_VALUE, Long.MAX_VALUE, TypeNode.IntRepr.LONG);
      }
      if (c == int.class || c == Integer.class) {
        return unsigned
            ? new TypeNode.Int(0, 0xFFFF_FFFFL, TypeNode.IntRepr.UINT)
            : new TypeNode.Int(Integer.MIN_VALUE, Integer.MAX_VALUE, TypeNode.IntRepr.INT);
      }
      if (c == short.class || c == Short.class) {
        return unsigned
            ? new TypeNode.Int(0, 0xFFFF, TypeNode.IntRepr.USHORT)
            : new TypeNode.Int(Short.MIN_VALUE, Short.MAX_VALUE, TypeNode.IntRepr.SHORT);
      }
      if (c == byte.class || c == Byte.class) {
        return unsigned
            ? new TypeNode.Int(0, 0xFF, TypeNode.IntRepr.UBYTE)
            : new TypeNode.Int(Byte.MIN_VALUE, Byte.MAX_VALUE, TypeNode.IntRepr.BYTE);
      }
      if (c == boolean.class || c == Boolean.class) {
        return new TypeNode.Bool();
      }
      if (c == double.class || c == Double.class) {
        return new TypeNode.Flt(false);
      }
      if (c == float.class || c == Float.class) {
        return new TypeNode.Flt(true);
      }
      if (c == byte[].class) {
        return new TypeNode.ListOf(new TypeNode.Int(0, 0xFF, TypeNode.IntRepr.UBYTE), true);
      }
      if (c == OptionalLong.class) {
        return new TypeNode.Opt(
            new TypeNode.Int(Long.MIN_VALUE, Long.MAX_VALUE, TypeNode.IntRepr.LONG),
            TypeNode.OptRepr.OPTIONAL_LONG);
      }
      if (c == OptionalInt.class) {
        return new TypeNode.Opt(
            new TypeNode.Int(Integer.MIN_VALUE, Integer.MAX_VALUE, TypeNode.IntRepr.INT),
            TypeNode.OptRepr.OPTIONAL_INT);
      }
      if (c == OptionalDouble.class) {
        return new TypeNode.Opt(new TypeNode.Flt(false), TypeNode.OptRepr.OPTIONAL_DOUBLE);
      }
      if (c.isRecord()) {
        return struct(c, false);
      }
      if (c == List.class || c == Map.class || c == Optional.class) {
        throw new TypeException(where + ": raw " + c.getSimpleName() + " needs a type argument");
      }
      throw new TypeException(where + ": unsupported type " + c.getTypeName());
    }
    if (t instanceof ParameterizedType p && at instanceof AnnotatedParameterizedType ap) {
      Type raw = p.getRawType();
      AnnotatedType[] args = ap.getAnnotatedActualTypeArguments();
      if (raw == List.class) {
        return new TypeNode.ListOf(node(args[0], where + "[]"), false);
      }
      if (raw == Map.class) {
        if (args[0].getType() != String.class) {
          throw new TypeException(
              where + ": map keys must be String, not " + args[0].getType().getTypeName());
        }
        return new TypeNode.DictOf(node(args[1], where + "{}"));
      }
      if (raw == Optional.class) {
        TypeNode inner = node(args[0], where);
        if (inner instanceof TypeNode.Opt) {
          if (role == Role.INPUT) {
            throw new TypeException(where + ": optional may not wrap optional");
          }
          return new TypeNode.Opt(((TypeNode.Opt) inner).elem(), TypeNode.OptRepr.OPTIONAL);
        }
        return new TypeNode.Opt(inner, TypeNode.OptRepr.OPTIONAL);
      }
    }
    throw new TypeException(where + ": unsupported type " + t.getTypeName());
  }

  private static boolean isIntegral(Class<?> c) {
    return c == long.class
        || c == Long.class
        || c == int.class
        || c == Integer.class
        || c == short.class
        || c == Short.class
        || c == byte.class
        || c == Byte.class;
  }

  private static boolean hasNullable(AnnotatedType at) {
    for (Annotation a : at.getAnnotations()) {
      if (a.annotationType().getSimpleName().equals("Nullable")) {
        return true;
      }
    }
    return false;
  }
}
