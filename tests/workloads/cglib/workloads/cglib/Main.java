package workloads.cglib;

import java.io.StringWriter;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import net.sf.cglib.proxy.Callback;
import net.sf.cglib.proxy.CallbackFilter;
import net.sf.cglib.proxy.Enhancer;
import net.sf.cglib.proxy.MethodInterceptor;
import net.sf.cglib.proxy.MethodProxy;
import net.sf.cglib.proxy.NoOp;
import net.sf.cglib.reflect.FastClass;
import workloads.common.Args;
import workloads.common.Summary;

/**
 * Runs SIZE units of cglib work. Each unit takes the next JDK class in turn, generates with cglib
 * (and the ASM it uses) a fresh proxy subclass whose methods go through an interceptor, exercises
 * an instance of it (which makes cglib generate the two fast classes behind MethodProxy), and
 * generates a FastClass of the JDK class to call a method by index. Every unit defines its classes
 * in a new class loader, so that old ones can be unloaded. Prints one line of counts and a checksum
 * of the results. Needs {@code --add-opens java.base/java.lang=ALL-UNNAMED} on JDK 17, for cglib
 * defines classes through ClassLoader.defineClass.
 */
public final class Main {
    private Main() {}

    /** A JDK class to proxy, how to construct it and what to do with an instance. */
    private interface Scenario {
        Class<?> type();

        default Class<?>[] constructorTypes() {
            return new Class<?>[0];
        }

        default Object[] constructorArgs(int unit) {
            return new Object[0];
        }

        long exercise(Object instance, int unit) throws Exception;

        /** A method called through the FastClass; its result must not depend on identity. */
        default String probe() {
            return "toString";
        }

        default Class<?>[] probeTypes() {
            return new Class<?>[0];
        }

        default Object[] probeArgs() {
            return new Object[0];
        }
    }

    private static final List<Scenario> SCENARIOS = List.of(
            scenario(ArrayList.class, (o, unit) -> {
                @SuppressWarnings("unchecked") List<Integer> list = (List<Integer>) o;
                for (int i = 0; i < 40; i++) {
                    list.add(i * unit % 97);
                }
                list.remove(Integer.valueOf(unit % 97));
                long sum = list.size();
                for (int i = 0; i < list.size(); i += 3) {
                    sum += list.get(i) + (list.contains(i) ? 1 : 0);
                }
                return sum;
            }),
            scenario(LinkedList.class, (o, unit) -> {
                @SuppressWarnings("unchecked") LinkedList<String> list = (LinkedList<String>) o;
                for (int i = 0; i < 30; i++) {
                    list.addFirst("n" + (i ^ unit));
                }
                list.addAll(List.of("x", "y", "z"));
                return list.indexOf("x") * 31L + list.removeLast().hashCode() + list.size();
            }),
            scenario(HashMap.class, (o, unit) -> {
                @SuppressWarnings("unchecked") Map<String, Integer> map = (Map<String, Integer>) o;
                for (int i = 0; i < 40; i++) {
                    map.merge("k" + (i % 13), i + unit, Integer::sum);
                }
                long sum = 0;
                for (int i = 0; i < 13; i++) {
                    sum = sum * 7 + map.getOrDefault("k" + i, -1);
                }
                return sum + map.size();
            }),
            scenario(TreeMap.class, (o, unit) -> {
                @SuppressWarnings("unchecked") TreeMap<Integer, String> map = (TreeMap<Integer, String>) o;
                for (int i = 0; i < 40; i++) {
                    map.put((i * 37 + unit) % 101, "v" + i);
                }
                return map.firstKey() * 1000L + map.lastKey() + map.headMap(50).size() + map.size();
            }),
            scenario(ArrayDeque.class, (o, unit) -> {
                @SuppressWarnings("unchecked") Deque<Integer> deque = (Deque<Integer>) o;
                long sum = 0;
                for (int i = 0; i < 40; i++) {
                    deque.offerLast(i + unit);
                    if (i % 3 == 0) {
                        sum += deque.pollFirst();
                    }
                }
                return sum * 100 + deque.size();
            }),
            new Scenario() {
                @Override
                public Class<?> type() {
                    return Random.class;
                }

                @Override
                public Class<?>[] constructorTypes() {
                    return new Class<?>[] {long.class};
                }

                @Override
                public Object[] constructorArgs(int unit) {
                    return new Object[] {(long) unit};
                }

                @Override
                public String probe() {
                    return "nextInt";
                }

                @Override
                public Class<?>[] probeTypes() {
                    return new Class<?>[] {int.class};
                }

                @Override
                public Object[] probeArgs() {
                    return new Object[] {1000};
                }

                @Override
                public long exercise(Object o, int unit) {
                    Random random = (Random) o;
                    long sum = 0;
                    for (int i = 0; i < 20; i++) {
                        sum += random.nextInt(1000) + (random.nextBoolean() ? 1 : 0);
                    }
                    return sum;
                }
            },
            scenario(BitSet.class, (o, unit) -> {
                BitSet bits = (BitSet) o;
                for (int i = 0; i < 200; i += 1 + unit % 5) {
                    bits.set(i);
                }
                bits.flip(10, 60);
                return bits.cardinality() * 1000L + bits.nextClearBit(3) + bits.length();
            }),
            scenario(StringWriter.class, (o, unit) -> {
                StringWriter writer = (StringWriter) o;
                for (int i = 0; i < 20; i++) {
                    writer.write("line " + i + " of unit " + unit + "\n");
                    writer.append('#');
                }
                return writer.toString().hashCode() + writer.getBuffer().length();
            }),
            scenario(Properties.class, (o, unit) -> {
                Properties properties = (Properties) o;
                for (int i = 0; i < 20; i++) {
                    properties.setProperty("key." + i, "value." + (i * unit));
                }
                return properties.getProperty("key.7").hashCode() + properties.stringPropertyNames().size();
            }),
            scenario(PriorityQueue.class, (o, unit) -> {
                @SuppressWarnings("unchecked") PriorityQueue<Integer> queue = (PriorityQueue<Integer>) o;
                for (int i = 0; i < 40; i++) {
                    queue.add((i * 53 + unit) % 89);
                }
                long sum = 0;
                while (queue.size() > 20) {
                    sum = sum * 3 + queue.poll();
                }
                return sum;
            }));

    private interface Exercise {
        long run(Object instance, int unit) throws Exception;
    }

    private static Scenario scenario(Class<?> type, Exercise exercise) {
        return new Scenario() {
            @Override
            public Class<?> type() {
                return type;
            }

            @Override
            public long exercise(Object instance, int unit) throws Exception {
                return exercise.run(instance, unit);
            }
        };
    }

    /** Counts the calls that reach it, then runs the original method. */
    private static final class Counting implements MethodInterceptor {
        long calls;

        @Override
        public Object intercept(Object target, Method method, Object[] args, MethodProxy proxy)
                throws Throwable {
            calls++;
            return proxy.invokeSuper(target, args);
        }
    }

    /** Sends the identity methods to NoOp and everything else to the interceptor. */
    private static final CallbackFilter FILTER = method -> {
        String name = method.getName();
        return name.equals("hashCode") || name.equals("equals") || name.equals("finalize") ? 1 : 0;
    };

    public static void main(String[] args) throws Exception {
        int size = Args.size("cglib", args);
        Summary summary = new Summary("cglib", size);
        for (int unit = 0; unit < size; unit++) {
            Scenario scenario = SCENARIOS.get(unit % SCENARIOS.size());
            ClassLoader loader = new ClassLoader(Main.class.getClassLoader()) {};

            Counting counting = new Counting();
            Enhancer enhancer = new Enhancer();
            enhancer.setClassLoader(loader);
            enhancer.setUseCache(false);
            enhancer.setSuperclass(scenario.type());
            enhancer.setCallbackFilter(FILTER);
            enhancer.setCallbacks(new Callback[] {counting, NoOp.INSTANCE});
            Object proxy = enhancer.create(scenario.constructorTypes(), scenario.constructorArgs(unit));
            long result = scenario.exercise(proxy, unit);
            summary.add("proxies", 1);
            summary.add("intercepted_calls", counting.calls);
            summary.digest(result);

            FastClass.Generator generator = new FastClass.Generator();
            generator.setClassLoader(loader);
            generator.setUseCache(false);
            generator.setType(scenario.type());
            FastClass fast = generator.create();
            Object plain = fast.newInstance(scenario.constructorTypes(), scenario.constructorArgs(unit));
            int probe = fast.getIndex(scenario.probe(), scenario.probeTypes());
            Object text = fast.invoke(probe, plain, scenario.probeArgs());
            summary.add("fast_classes", 1);
            summary.add("fast_class_methods", fast.getMaxIndex() + 1);
            summary.digest(String.valueOf(text));
        }
        System.out.println(summary.line());
    }
}
