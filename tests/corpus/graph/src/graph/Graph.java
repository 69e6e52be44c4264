package graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.PriorityQueue;

/** A directed weighted graph on vertices 0..n-1: shortest paths, reachability, topological order. */
public class Graph {
    record Edge(int from, int to, int weight) {}

    private final int n;
    private final List<List<Edge>> out = new ArrayList<>();

    Graph(int n) {
        this.n = n;
        for (int v = 0; v < n; v++) {
            out.add(new ArrayList<>());
        }
    }

    void addEdge(int from, int to, int weight) {
        out.get(from).add(new Edge(from, to, weight));
    }

    static final int INF = Integer.MAX_VALUE;

    /** Dijkstra: dist[v] from source (INF when unreachable), prev[v] the vertex before v. */
    int[] shortest(int source, int[] prev) {
        int[] dist = new int[n];
        Arrays.fill(dist, INF);
        Arrays.fill(prev, -1);
        dist[source] = 0;
        PriorityQueue<int[]> queue = new PriorityQueue<>(new ByDistance());
        queue.add(new int[] {source, 0});
        while (!queue.isEmpty()) {
            int[] top = queue.poll();
            int u = top[0];
            if (top[1] > dist[u]) {
                continue;
            }
            for (Edge e : out.get(u)) {
                if (relax(e, dist, prev)) {
                    queue.add(new int[] {e.to(), dist[e.to()]});
                }
            }
        }
        return dist;
    }

    static boolean relax(Edge e, int[] dist, int[] prev) {
        int candidate = dist[e.from()] + e.weight();
        if (candidate < dist[e.to()]) {
            dist[e.to()] = candidate;
            prev[e.to()] = e.from();
            return true;
        }
        return false;
    }

    static List<Integer> path(int[] prev, int target) {
        List<Integer> p = new ArrayList<>();
        for (int v = target; v != -1; v = prev[v]) {
            p.add(0, v);
        }
        return p;
    }

    /** Vertices reachable from source in breadth-first order. */
    List<Integer> bfs(int source) {
        boolean[] seen = new boolean[n];
        List<Integer> order = new ArrayList<>();
        Deque<Integer> queue = new ArrayDeque<>();
        queue.add(source);
        seen[source] = true;
        while (!queue.isEmpty()) {
            int u = queue.poll();
            order.add(u);
            for (Edge e : out.get(u)) {
                if (!seen[e.to()]) {
                    seen[e.to()] = true;
                    queue.add(e.to());
                }
            }
        }
        return order;
    }

    /** Kahn's algorithm, smallest ready vertex first; null when there is a cycle. */
    List<Integer> topologicalOrder() {
        int[] indegree = new int[n];
        for (List<Edge> edges : out) {
            for (Edge e : edges) {
                indegree[e.to()]++;
            }
        }
        PriorityQueue<Integer> ready = new PriorityQueue<>();
        for (int v = 0; v < n; v++) {
            if (indegree[v] == 0) {
                ready.add(v);
            }
        }
        List<Integer> order = new ArrayList<>();
        while (!ready.isEmpty()) {
            int u = ready.poll();
            order.add(u);
            for (Edge e : out.get(u)) {
                indegree[e.to()]--;
                if (indegree[e.to()] == 0) {
                    ready.add(e.to());
                }
            }
        }
        return order.size() == n ? order : null;
    }
}
