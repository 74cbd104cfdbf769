package dev.agentcompute.ovn;

import java.util.Map;

/** A typed, read-only view of one OVN_Northbound row. */
public sealed interface NbRecord
    permits LogicalSwitch,
        LogicalSwitchPort,
        LogicalRouter,
        Acl,
        PortGroup,
        AddressSet,
        Nat,
        LoadBalancer {
  Uuid uuid();

  Map<String, String> externalIds();
}
