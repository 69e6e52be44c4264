package workloads.javassist;

/** What every generated class implements, so that the driver can call it without reflection. */
public interface Task {
    long run(long seed);
}
