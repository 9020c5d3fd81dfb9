package dev.toolgate.gateway.console;

import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** The frame every console page shares and the pages that say no. No script anywhere, so the CSP forbids it. */
final class ConsolePages {

    static final String STYLE_PATH = "/console/console.css";

    private ConsolePages() {
    }

    /** On every console answer: nothing framed, sniffed, cached, scripted, or leaked to another site through a Referer. */
    static void secureHeaders(HttpServletResponse response) {
        response.setHeader("Content-Security-Policy",
                "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'");
        // no form-action: signing out is a form whose answer redirects to the identity provider's logout
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        // same-origin, not no-referrer: with no-referrer the browser sends "Origin: null" on the console's own forms,
        // which the CSRF check must refuse; the key-bearing URLs still never reach another site (the trace backend)
        response.setHeader("Referrer-Policy", "same-origin");
        response.setHeader("Cache-Control", "no-store");
    }

    /** {@code user} null for the pages of nobody (signed out, refused before sign-in). */
    static String page(String title, ConsoleUser user, String csrf, ConsoleAccess current, Html body, int refreshSeconds) {
        Html html = new Html().raw("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
        if (refreshSeconds > 0) {
            html.raw("<meta http-equiv=\"refresh\" content=\"" + refreshSeconds + "\">");
        }
        html.raw("<title>").text(title).raw(" · Toolgate console</title>")
                .raw("<link rel=\"stylesheet\" href=\"" + STYLE_PATH + "\"></head><body>")
                .raw("<a class=\"skip\" href=\"#main\">Skip to content</a><header><p class=\"brand\"><a href=\"/console/\">Toolgate console</a></p>");
        if (user != null) {
            html.raw("<nav aria-label=\"Console\"><ul>");
            nav(html, user, current, ConsoleAccess.APPROVALS, "/console/approvals", "Approvals");
            nav(html, user, current, ConsoleAccess.ESCALATIONS, "/console/escalations", "Escalations");
            nav(html, user, current, ConsoleAccess.UNFINISHED, "/console/unfinished", "Unfinished work");
            nav(html, user, current, ConsoleAccess.SEARCH, "/console/search", "Search");
            nav(html, user, current, ConsoleAccess.RECONCILE, "/console/reconcile", "Reconcile");
            html.raw("</ul></nav><form class=\"who\" method=\"post\" action=\"/console/sign-out\"><p>Signed in as <strong id=\"signed-in-as\">")
                    .text(user.name()).raw("</strong> (").text(user.roleNames()).raw(") · tenant <strong id=\"tenant\">").text(user.tenant())
                    .raw("</strong></p>").hidden(Csrf.FIELD, csrf).raw("<button type=\"submit\">Sign out</button></form>");
        }
        return html.raw("</header><main id=\"main\"><h1>").text(title).raw("</h1>").raw(body.toString())
                .raw("</main></body></html>").toString();
    }

    private static void nav(Html html, ConsoleUser user, ConsoleAccess current, ConsoleAccess page, String href, String label) {
        if (user.may(page)) {
            html.raw("<li>").raw(page == current ? "<a aria-current=\"page\" href=\"" : "<a href=\"").raw(href).raw("\">")
                    .text(label).raw("</a></li>");
        }
    }

    static void refused(HttpServletResponse response, int status, String title, String why, String csrf) throws IOException {
        Html body = new Html().raw("<p class=\"refused\" role=\"alert\">").text(why).raw("</p>")
                .raw("<p><a href=\"/console/\">Back to the console</a></p>");
        if (csrf != null) {
            body.raw("<form method=\"post\" action=\"/console/sign-out\">").hidden(Csrf.FIELD, csrf)
                    .raw("<button type=\"submit\">Sign out</button></form>");
        }
        write(response, status, page(title, null, null, null, body, 0));
    }

    static void write(HttpServletResponse response, int status, String html) throws IOException {
        response.setStatus(status);
        response.setContentType("text/html;charset=UTF-8");
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    static final String STYLE = """
            :root { font-family: system-ui, sans-serif; line-height: 1.45; color: #1b1b1b; background: #fff; }
            body { margin: 0; }
            .skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px; }
            header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; padding: .5rem 1.5rem; border-bottom: 2px solid #333; }
            .brand { margin: 0; font-weight: 700; } .brand a { color: inherit; text-decoration: none; }
            nav ul { display: flex; gap: 1rem; list-style: none; margin: 0; padding: 0; }
            nav a[aria-current] { font-weight: 700; text-decoration: underline 3px; }
            .who { margin-left: auto; display: flex; align-items: center; gap: .5rem; } .who p { margin: 0; }
            main { padding: 1rem 1.5rem 3rem; max-width: 80rem; }
            table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-size: .95rem; }
            th, td { border: 1px solid #999; padding: .3rem .5rem; text-align: left; vertical-align: top; }
            th { background: #eee; } td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
            code, .fingerprint { font-family: ui-monospace, monospace; word-break: break-all; }
            dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; } dl.facts dt { font-weight: 600; }
            .banner { border: 2px solid #333; padding: .5rem 1rem; } .refused { border: 3px double #333; padding: .5rem 1rem; font-weight: 600; }
            .standing { font-weight: 700; text-transform: uppercase; letter-spacing: .03em; }
            form.action { border: 1px solid #999; padding: .75rem 1rem; margin: 1rem 0; max-width: 40rem; }
            form.action label { display: block; margin: .4rem 0 .1rem; font-weight: 600; }
            input[type=text], input[type=datetime-local], textarea, select { font: inherit; padding: .25rem; max-width: 100%; }
            textarea { width: 100%; } button { font: inherit; padding: .3rem .9rem; cursor: pointer; }
            :focus-visible { outline: 3px solid #000; outline-offset: 2px; }
            .search { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; } .search label { display: block; font-weight: 600; }
            .pager { margin: 1rem 0; }
            """;
}
