package ranking;

public record Player(String name, int score, int games) {}
