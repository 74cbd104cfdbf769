package dev.agentcompute.ovn;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** The OVN_Northbound tables {@link OvnNorthbound} reads, each with its typed record. */
public final class NbTable<T extends NbRecord> {
  public static final NbTable<LogicalSwitch> LOGICAL_SWITCH =
      new NbTable<>("Logical_Switch", LogicalSwitch::from, r -> Optional.of(r.name()));
  public static final NbTable<LogicalSwitchPort> LOGICAL_SWITCH_PORT =
      new NbTable<>("Logical_Switch_Port", LogicalSwitchPort::from, r -> Optional.of(r.name()));
  public static final NbTable<LogicalRouter> LOGICAL_ROUTER =
      new NbTable<>("Logical_Router", LogicalRouter::from, r -> Optional.of(r.name()));
  public static final NbTable<Acl> ACL = new NbTable<>("ACL", Acl::from, Acl::name);
  public static final NbTable<PortGroup> PORT_GROUP =
      new NbTable<>("Port_Group", PortGroup::from, r -> Optional.of(r.name()));
  public static final NbTable<AddressSet> ADDRESS_SET =
      new NbTable<>("Address_Set", AddressSet::from, r -> Optional.of(r.name()));
  public static final NbTable<Nat> NAT = new NbTable<>("NAT", Nat::from, r -> Optional.empty());
  public static final NbTable<LoadBalancer> LOAD_BALANCER =
      new NbTable<>("Load_Balancer", LoadBalancer::from, r -> Optional.of(r.name()));

  static final List<NbTable<?>> ALL =
      List.of(
          LOGICAL_SWITCH,
          LOGICAL_SWITCH_PORT,
          LOGICAL_ROUTER,
          ACL,
          PORT_GROUP,
          ADDRESS_SET,
          NAT,
          LOAD_BALANCER);

  private final String name;
  private final Function<Row, T> reader;
  private final Function<T, Optional<String>> nameOf;

  private NbTable(String name, Function<Row, T> reader, Function<T, Optional<String>> nameOf) {
    this.name = name;
    this.reader = reader;
    this.nameOf = nameOf;
  }

  /** The table's name in the schema. */
  public String name() {
    return name;
  }

  T read(Row row) {
    return reader.apply(row);
  }

  Optional<String> nameOf(T record) {
    return nameOf.apply(record);
  }

  @Override
  public String toString() {
    return name;
  }
}
