package dev.toolgate.notification;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The CIDR blocks a target's notifications may come from; empty: any. A source proves little (a notification is only
 * a trigger) but keeps strangers from spending our look-ups.
 */
public final class SourceNetworks {

    private final List<Block> blocks;

    private SourceNetworks(List<Block> blocks) {
        this.blocks = blocks;
    }

    /** Throws IllegalArgumentException naming the bad block. */
    public static SourceNetworks parse(String text) {
        List<Block> blocks = new ArrayList<>();
        for (String raw : text == null ? new String[0] : text.split(",")) {
            String block = raw.strip();
            if (!block.isEmpty()) {
                blocks.add(Block.parse(block));
            }
        }
        return new SourceNetworks(List.copyOf(blocks));
    }

    public boolean any() {
        return blocks.isEmpty();
    }

    public boolean admits(String address) {
        if (blocks.isEmpty()) {
            return true;
        }
        byte[] bytes = literal(address);
        return bytes != null && blocks.stream().anyMatch(b -> b.contains(bytes));
    }

    private static byte[] literal(String address) {
        if (address == null) {
            return null;
        }
        String bare = address.startsWith("[") && address.endsWith("]") ? address.substring(1, address.length() - 1) : address;
        int zone = bare.indexOf('%');
        bare = zone < 0 ? bare : bare.substring(0, zone);
        // only literals: InetAddress.getByName would resolve a name, and a peer address is never one
        if (bare.isEmpty() || !bare.toLowerCase(Locale.ROOT).matches("[0-9a-f:.]+")) {
            return null;
        }
        try {
            return InetAddress.getByName(bare).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private record Block(byte[] network, int prefix) {

        static Block parse(String text) {
            int slash = text.indexOf('/');
            byte[] network = literal(slash < 0 ? text : text.substring(0, slash));
            if (network == null) {
                throw new IllegalArgumentException("not an IP address or CIDR block: " + text);
            }
            int prefix;
            try {
                prefix = slash < 0 ? network.length * 8 : Integer.parseInt(text.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a CIDR prefix length: " + text);
            }
            if (prefix < 0 || prefix > network.length * 8) {
                throw new IllegalArgumentException("a prefix length out of range: " + text);
            }
            return new Block(network, prefix);
        }

        boolean contains(byte[] address) {
            if (address.length != network.length) { // an IPv4 peer never matches an IPv6 block, nor the reverse
                return false;
            }
            for (int bit = 0; bit < prefix; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((address[bit / 8] & mask) != (network[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }
}
