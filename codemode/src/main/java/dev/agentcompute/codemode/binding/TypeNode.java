package dev.agentcompute.codemode.binding;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.List;

/**
 * The model-facing type of a value: the shape both sides of the worker boundary bind against. Java
 * details (record classes, accessors, representations) are present on the host and absent in a
 * worker, which rebuilds the tree from the manifest.
 */
public sealed interface TypeNode {

  /** How a Java integral value is stored. Unsigned forms read the bits as unsigned. */
  enum IntRepr {
    LONG,
    INT,
    SHORT,
    BYTE,
    ULONG,
    UINT,
    USHORT,
    UBYTE,
    NONE
  }

  /** How a Java optional is stored. */
  enum OptRepr {
    OPTIONAL,
    OPTIONAL_LONG,
    OPTIONAL_INT,
    OPTIONAL_DOUBLE,
    NULLABLE,
    NONE
  }

  record Str() implements TypeNode {}

  record Int(long min, long max, IntRepr repr) implements TypeNode {}

  record Bool() implements TypeNode {}

  record Flt(boolean float32) implements TypeNode {}

  /** A list; {@code bytes} marks a Java {@code byte[]} (elements 0..255). */
  record ListOf(TypeNode elem, boolean bytes) implements TypeNode {}

  record DictOf(TypeNode elem) implements TypeNode {}

  /** A record (host) or an object shape (worker: type and constructor null). */
  record Struct(Class<?> type, Constructor<?> constructor, List<Field> fields)
      implements TypeNode {}

  /** A value that may be None (Go pointer). */
  record Opt(TypeNode elem, OptRepr repr) implements TypeNode {}

  /** One member of a struct. {@code accessor} is null in a worker. */
  record Field(String name, TypeNode type, boolean omitEmpty, Method accessor) {}
}
