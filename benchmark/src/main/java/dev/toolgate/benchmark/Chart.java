package dev.toolgate.benchmark;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Draws median p50 and p99 latency against concurrency, one line per closed-loop series, into a PNG a person can read. */
final class Chart {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;
    private static final int LEFT = 80;
    private static final int RIGHT = 220;
    private static final int TOP = 50;
    private static final int BOTTOM = 70;
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd), new Color(0xff7f0e),
            new Color(0x8c564b), new Color(0x17becf)};

    private Chart() {
    }

    static void draw(Map<String, List<Cell>> series, Path png) throws IOException {
        List<Integer> concurrencies = Measurements.CONCURRENCY;
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        double max = series.values().stream().flatMap(List::stream).mapToDouble(c -> c.p99().median()).max().orElse(1) * 1.1;
        axes(g, concurrencies, max);
        int i = 0;
        for (Map.Entry<String, List<Cell>> s : series.entrySet()) {
            Color color = COLORS[i % COLORS.length];
            line(g, s.getValue(), concurrencies, max, color, 50, new BasicStroke(2.5f));
            line(g, s.getValue(), concurrencies, max, color, 99,
                    new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
            g.setColor(color);
            g.drawString(s.getKey(), WIDTH - RIGHT + 20, TOP + 20 + i * 22);
            i++;
        }
        g.setColor(Color.DARK_GRAY);
        g.drawString("solid: p50   dashed: p99", WIDTH - RIGHT + 20, TOP + 20 + i * 22 + 10);
        g.setFont(g.getFont().deriveFont(Font.BOLD, 16f));
        g.drawString("Latency vs concurrency (ms)", LEFT, 30);
        g.dispose();
        ImageIO.write(image, "png", png.toFile());
    }

    private static void axes(Graphics2D g, List<Integer> concurrencies, double max) {
        g.setColor(Color.GRAY);
        g.drawLine(LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, HEIGHT - BOTTOM);
        g.drawLine(LEFT, TOP, LEFT, HEIGHT - BOTTOM);
        for (int t = 0; t <= 5; t++) {
            double value = max * t / 5;
            int y = y(value, max);
            g.setColor(new Color(0xeeeeee));
            g.drawLine(LEFT + 1, y, WIDTH - RIGHT, y);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format("%.1f", value), LEFT - 45, y + 5);
        }
        for (int c = 0; c < concurrencies.size(); c++) {
            g.drawString("c=" + concurrencies.get(c), x(c, concurrencies.size()) - 12, HEIGHT - BOTTOM + 20);
        }
        g.drawString("concurrency", (LEFT + WIDTH - RIGHT) / 2 - 30, HEIGHT - 25);
    }

    private static void line(Graphics2D g, List<Cell> results, List<Integer> concurrencies, double max, Color color,
                             double percentile, BasicStroke stroke) {
        g.setColor(color);
        g.setStroke(stroke);
        for (int c = 1; c < results.size(); c++) {
            g.drawLine(x(c - 1, concurrencies.size()), y(median(results.get(c - 1), percentile), max),
                    x(c, concurrencies.size()), y(median(results.get(c), percentile), max));
        }
        for (int c = 0; c < results.size(); c++) {
            g.fillOval(x(c, concurrencies.size()) - 3, y(median(results.get(c), percentile), max) - 3, 6, 6);
        }
        g.setStroke(new BasicStroke(1));
    }

    private static double median(Cell cell, double percentile) {
        return cell.figure(r -> r.millis(percentile)).median();
    }

    private static int x(int index, int count) {
        return LEFT + 40 + index * (WIDTH - RIGHT - LEFT - 80) / Math.max(1, count - 1);
    }

    private static int y(double value, double max) {
        return HEIGHT - BOTTOM - (int) (value / max * (HEIGHT - BOTTOM - TOP));
    }
}
