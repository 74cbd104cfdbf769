package dev.agentcompute.capabilities.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.platform.FileDriver;
import dev.agentcompute.capabilities.platform.ImageDriver;
import dev.agentcompute.capabilities.platform.InstanceDriver;
import dev.agentcompute.capabilities.platform.NetworkDriver;
import dev.agentcompute.capabilities.platform.OvnFabric;
import dev.agentcompute.capabilities.platform.ProcessDriver;
import dev.agentcompute.capabilities.platform.ReaperLease;
import dev.agentcompute.capabilities.platform.SandboxStore;
import dev.agentcompute.capabilities.platform.SnapshotDriver;
import dev.agentcompute.incus.IncusException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link IncusPorts} forwards every method of every port (defaults included, a driver may override
 * them) to the driver and translates its Incus failure once. Reflection is used here only: each
 * port method is called on the forwarder over a driver whose every method throws {@link
 * IncusException.NotFound}, and must reach it and come back as a {@link BackendException}.
 */
class IncusPortsTest {
  /** Methods that call no Incus: forwarded, but nothing to translate. */
  private static final List<String> PLAIN = List.of("cuaDriverPath", "macGuestHome");

  static Stream<Arguments> ports() {
    return Stream.of(
        port(SandboxStore.class, IncusPorts.Sandboxes::new),
        port(InstanceDriver.class, IncusPorts.Instances::new),
        port(SnapshotDriver.class, IncusPorts.Snapshots::new),
        port(ImageDriver.class, IncusPorts.Images::new),
        port(NetworkDriver.class, IncusPorts.Networks::new),
        port(OvnFabric.class, IncusPorts.Fabric::new),
        port(FileDriver.class, IncusPorts.Files::new),
        port(ReaperLease.class, IncusPorts.Lease::new),
        port(ProcessDriver.class, IncusPorts.Processes::new));
  }

  private static <T> Arguments port(Class<T> type, Function<T, ? extends T> forwarder) {
    return Arguments.of(type, forwarder);
  }

  /** Every abstract and default instance method of {@code port}. */
  private static List<Method> methods(Class<?> port) {
    return Arrays.stream(port.getMethods())
        .filter(m -> !Modifier.isStatic(m.getModifiers()))
        .toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ports")
  <T> void everyPortMethodIsForwardedAndItsIncusFailureTranslated(
      Class<T> port, Function<T, T> forwarder) throws Exception {
    Constructor<IncusException.NotFound> notFound =
        IncusException.NotFound.class.getDeclaredConstructor(String.class);
    notFound.setAccessible(true);
    List<String> reached = new java.util.ArrayList<>();
    T failing =
        port.cast(
            Proxy.newProxyInstance(
                port.getClassLoader(),
                new Class<?>[] {port},
                (proxy, method, args) -> {
                  reached.add(method.getName());
                  if (PLAIN.contains(method.getName())) {
                    return "plain";
                  }
                  throw notFound.newInstance("gone: " + method.getName());
                }));
    T ports = forwarder.apply(failing);
    for (Method method : methods(port)) {
      assertThat(ports.getClass().getDeclaredMethod(method.getName(), method.getParameterTypes()))
          .as("%s.%s is written out in IncusPorts", port.getSimpleName(), method.getName())
          .isNotNull();
      reached.clear();
      Object[] args = new Object[method.getParameterCount()];
      for (int i = 0; i < args.length; i++) {
        args[i] = zero(method.getParameterTypes()[i]);
      }
      if (PLAIN.contains(method.getName())) {
        assertThat(method.invoke(ports, args)).isEqualTo("plain");
      } else {
        assertThatThrownBy(
                () -> {
                  try {
                    method.invoke(ports, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                })
            .as("%s.%s translates the driver's failure", port.getSimpleName(), method.getName())
            .isInstanceOf(BackendException.class)
            .hasMessage("gone: " + method.getName());
      }
      assertThat(reached)
          .as("%s.%s reaches the driver", port.getSimpleName(), method.getName())
          .containsExactly(method.getName());
    }
  }

  private static Object zero(Class<?> type) {
    if (!type.isPrimitive()) {
      return null;
    }
    if (type == boolean.class) {
      return false;
    }
    if (type == long.class) {
      return 0L;
    }
    return 0;
  }
}
