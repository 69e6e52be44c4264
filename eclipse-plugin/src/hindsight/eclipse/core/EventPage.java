package hindsight.eclipse.core;

import java.util.List;

/**
 * A page of a call's events.
 *
 * @param events the events, in time order
 * @param next the timestamp the next page starts from, or -1 after the last page
 */
public record EventPage(List<TraceEvent> events, long next) {
}
