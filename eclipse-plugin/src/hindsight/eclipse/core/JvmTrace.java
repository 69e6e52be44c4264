package hindsight.eclipse.core;

/**
 * One JVM a launch started, recorded or not (the core's {@code JvmTrace}).
 *
 * @param index connection order, from 0
 * @param path its trace file
 * @param state {@code recording}, {@code complete}, {@code truncated}, {@code malformed} or {@code failed}
 * @param detail why it is truncated, malformed or failed, or null
 * @param events events recorded
 * @param nodes nodes recorded
 */
public record JvmTrace(int index, String path, String state, String detail, long events, long nodes) {
}
