package ranking;

import java.util.Comparator;

/** Orders players best first: higher score first, ties by fewer games, then by name. */
public class ByScore implements Comparator<Player> {
    @Override
    public int compare(Player a, Player b) {
        if (a.score() != b.score()) {
            return Integer.compare(a.score(), b.score());
        }
        if (a.games() != b.games()) {
            return Integer.compare(a.games(), b.games());
        }
        return a.name().compareTo(b.name());
    }
}
