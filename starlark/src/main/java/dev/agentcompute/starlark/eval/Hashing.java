package dev.agentcompute.starlark.eval;

/**
 * The hashes of dict and set keys, keyed by a secret per-process seed. Fixed hashes let a program
 * choose keys that all collide, and every insert then compares against all earlier keys: 40,000
 * ints {@code k * 4294967297} took 7 s to insert with the unkeyed hash (starlark-go's own int and
 * float hashes are as exposed). These hashes are never visible: {@code hash()} returns Java's
 * String.hashCode and FNV-1a as starlark-go does, and dicts iterate in insertion order.
 */
final class Hashing {
  private Hashing() {}

  /** Not secret from the process, but from the program: Starlark has no clock or randomness. */
  private static final long SEED = mix(System.nanoTime() ^ mix(System.currentTimeMillis()));

  private static final long FNV_PRIME = 0x100000001b3L;

  /** The hash of a 64-bit value (an int within a long, a float's bits). */
  static int ofLong(long v) {
    return (int) mix(v ^ SEED);
  }

  /** The hash of a byte string (UTF-8 of a string, bytes, an int's two's complement). */
  static int ofBytes(byte[] b) {
    long h = SEED ^ b.length;
    for (byte x : b) {
      h = (h ^ (x & 0xFF)) * FNV_PRIME;
    }
    return (int) mix(h);
  }

  /** The running hash of a tuple after one more element (non-linear, unlike Python's). */
  static int combine(int running, int element) {
    return (int) mix(((long) running << 32) ^ (element & 0xFFFFFFFFL) ^ SEED);
  }

  /** The start of a tuple's running hash. */
  static int tupleStart(int length) {
    return ofLong(~(long) length);
  }

  /** MurmurHash3's 64-bit finalizer: every input bit affects every output bit. */
  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }
}
