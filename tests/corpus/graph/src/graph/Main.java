package graph;

import java.util.Arrays;

public class Main {
    public static void main(String[] args) {
        Graph g = new Graph(9);
        int[][] edges = {
            {0, 1, 4}, {0, 2, 1}, {2, 1, 2}, {1, 3, 5}, {2, 3, 8}, {2, 4, 10}, {3, 4, 2},
            {3, 5, 6}, {4, 5, 3}, {5, 6, 1}, {4, 6, 7}, {7, 8, 1}
        };
        for (int[] e : edges) {
            g.addEdge(e[0], e[1], e[2]);
        }
        int[] prev = new int[9];
        int[] dist = g.shortest(0, prev);
        System.out.println("dist " + Arrays.toString(dist).replace(String.valueOf(Graph.INF), "inf"));
        for (int t : new int[] {3, 5, 6, 8}) {
            System.out.println("path to " + t + ": " + Graph.path(prev, t));
        }
        System.out.println("bfs from 0: " + g.bfs(0));
        System.out.println("bfs from 7: " + g.bfs(7));
        System.out.println("topological order: " + g.topologicalOrder());
        g.addEdge(6, 2, 1);
        System.out.println("with 6->2: " + g.topologicalOrder());
    }
}
