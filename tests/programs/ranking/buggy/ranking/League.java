package ranking;

import java.util.ArrayList;
import java.util.List;

/** A league table: sorts the players with a comparator and awards the medals. */
public class League {
    private final List<Player> players = new ArrayList<>();

    void add(String name, int score, int games) {
        players.add(new Player(name, score, games));
    }

    List<Player> table() {
        List<Player> sorted = new ArrayList<>(players);
        sorted.sort(new ByScore());
        return sorted;
    }

    static String medal(int place) {
        switch (place) {
            case 1: return "gold";
            case 2: return "silver";
            case 3: return "bronze";
            default: return "-";
        }
    }

    public static void main(String[] args) {
        League league = new League();
        league.add("kim", 31, 12);
        league.add("lee", 45, 12);
        league.add("max", 31, 11);
        league.add("ola", 27, 12);
        league.add("pat", 45, 13);
        int place = 1;
        for (Player p : league.table()) {
            System.out.println(place + ". " + p.name() + " " + p.score() + " " + medal(place));
            place++;
        }
    }
}
