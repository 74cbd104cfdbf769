package dev.agentcompute.capabilities.model;

import java.util.Collection;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The pool that sandbox bridge networks take their subnets from: {@code pool} carved into blocks of
 * {@code blockPrefix} (10.210.0.0/16 into /24s by default). The pool keeps no state: the subnets in
 * use are read from Incus each time, so a restart loses nothing and two live networks never get the
 * same block. Incus never picks a subnet itself ({@code auto} probes random addresses off the
 * host).
 */
public record SubnetPool(Ipv4Cidr pool, int blockPrefix) {
  public SubnetPool {
    pool = pool.network();
    if (blockPrefix < pool.prefix() || blockPrefix > 30) {
      throw new IllegalArgumentException(
          "subnet pool block /"
              + blockPrefix
              + " must be between the pool prefix /"
              + pool.prefix()
              + " and /30");
    }
  }

  public static SubnetPool parse(String cidr, int blockPrefix) {
    Ipv4Cidr parsed =
        Ipv4Cidr.parse(cidr)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "subnet pool \"" + cidr + "\" is not an IPv4 CIDR"));
    return new SubnetPool(parsed, blockPrefix);
  }

  /**
   * The first free block, as its gateway address ({@code 10.210.3.1/24}); empty when every block
   * overlaps a subnet in {@code used}.
   */
  public Optional<Ipv4Cidr> firstFree(Collection<Ipv4Cidr> used) {
    for (long i = 0; i < blocks(); i++) {
      Ipv4Cidr block = block(i);
      if (used.stream().noneMatch(block::overlaps)) {
        return Optional.of(block.host(1));
      }
    }
    return Optional.empty();
  }

  /**
   * A free block chosen at random, as its gateway address: what a server picks after another took
   * the block it chose, so that the two part. Falls back to {@link #firstFree} when random probes
   * find nothing (a nearly full pool).
   */
  public Optional<Ipv4Cidr> randomFree(Collection<Ipv4Cidr> used, RandomGenerator random) {
    for (int probe = 0; probe < RANDOM_PROBES; probe++) {
      Ipv4Cidr block = block(random.nextLong(blocks()));
      if (used.stream().noneMatch(block::overlaps)) {
        return Optional.of(block.host(1));
      }
    }
    return firstFree(used);
  }

  private static final int RANDOM_PROBES = 64;

  private long blocks() {
    return 1L << (blockPrefix - pool.prefix());
  }

  private Ipv4Cidr block(long index) {
    long blockSize = 1L << (32 - blockPrefix);
    return new Ipv4Cidr(
        (int) (Integer.toUnsignedLong(pool.address()) + index * blockSize), blockPrefix);
  }
}
