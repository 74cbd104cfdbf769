package dev.agentcompute.capabilities.model;

/**
 * An instance to create, with defaults already resolved from the image.
 *
 * @param image what the agent named (catalogue or published image)
 * @param network logical network, {@code default}, or {@code none} for no NIC
 * @param host cluster member, empty for the sandbox's member
 */
public record InstancePlan(
    String name,
    String image,
    ResolvedImage source,
    String kind,
    int cpus,
    int memoryMb,
    int diskGb,
    String network,
    String host,
    boolean start) {}
