package dev.agentcompute.incus;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.std.StdDeserializer;

/**
 * Reads a Go {@code uint64} into a {@code long}, two's complement: a figure Incus computed as a
 * negative number and sent wrapped around 2^64 (sysinfo's {@code free_ram} of a container whose
 * memory usage and cache together pass its limit) reads as that negative number, where Jackson
 * would refuse it as out of range of {@code long}.
 */
final class Uint64 extends StdDeserializer<Long> {

  Uint64() {
    super(Long.class);
  }

  @Override
  public Long deserialize(JsonParser p, DeserializationContext ctxt) {
    if (p.hasToken(JsonToken.VALUE_NUMBER_INT)) {
      return p.getBigIntegerValue().longValue();
    }
    return ctxt.readValue(p, Long.class);
  }

  @Override
  public Long getNullValue(DeserializationContext ctxt) {
    return 0L;
  }
}
