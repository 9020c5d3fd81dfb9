package dev.toolgate.process;

/** A process type's declaration that cannot run: refused at start-up, the message saying what and where. */
public class InvalidDeclaration extends RuntimeException {

    public InvalidDeclaration(String message) {
        super(message);
    }
}
