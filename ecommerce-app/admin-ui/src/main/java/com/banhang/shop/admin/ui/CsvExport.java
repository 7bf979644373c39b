package com.banhang.shop.admin.ui;

import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.server.VaadinSession;
import com.vaadin.flow.server.streams.DownloadHandler;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * A "Download CSV" link for a view's rows, for a ticket or a spreadsheet. The rows are read when
 * the link is followed, by the operator of the session that follows it (an export is a read like
 * any other: where reads are audited, so is the export). Quoting is RFC 4180's, by Commons CSV; a
 * cell that starts like a formula is prefixed with an apostrophe, so a spreadsheet shows it instead
 * of running it.
 */
final class CsvExport {

  /** At most this many rows go into one file; the view says so in the link's title. */
  static final int MAX_ROWS = 10_000;

  private CsvExport() {}

  /** Reads the rows for the operator (by name) and returns them, header excluded. */
  interface Rows {
    List<List<String>> read(String operator);
  }

  /** Puts the export on record: who, which file, how many rows. */
  interface Audit {
    void exported(String operator, String fileName, int rows);
  }

  static Anchor link(String id, String fileName, List<String> header, Rows rows, Audit audit) {
    DownloadHandler handler =
        event -> {
          String operator = operatorOf(event.getSession());
          if (operator == null) {
            event.getResponse().setStatus(403);
            return;
          }
          // Read and on record before the response starts, so a failing audit serves nothing.
          List<List<String>> read = onRecord(operator, fileName, rows, audit);
          event.setFileName(fileName);
          event.setContentType("text/csv; charset=UTF-8");
          try (Writer out =
              new OutputStreamWriter(event.getOutputStream(), StandardCharsets.UTF_8)) {
            write(out, header, read);
          }
        };
    Anchor anchor =
        new Anchor(
            handler, com.vaadin.flow.component.html.AttachmentType.DOWNLOAD, Texts.t("csv.link"));
    anchor.setId(id);
    anchor.setTitle(Texts.t("csv.link.title", MAX_ROWS));
    return anchor;
  }

  /**
   * Reads the rows for {@code operator}, puts the export on record, then writes them: an export
   * whose audit entry cannot be written is not served (the exception goes to the download).
   */
  static void export(
      String operator, String fileName, List<String> header, Rows rows, Audit audit, Appendable out)
      throws IOException {
    write(out, header, onRecord(operator, fileName, rows, audit));
  }

  private static List<List<String>> onRecord(
      String operator, String fileName, Rows rows, Audit audit) {
    List<List<String>> read = rows.read(operator);
    audit.exported(operator, fileName, read.size());
    return read;
  }

  static void write(Appendable out, List<String> header, List<List<String>> rows)
      throws IOException {
    try (CSVPrinter printer =
        CSVFormat.RFC4180.builder().setHeader(header.toArray(String[]::new)).get().print(out)) {
      for (List<String> row : rows) {
        printer.printRecord(row.stream().map(CsvExport::defused).toList());
      }
    }
  }

  /** Maps rows of any type to the cells of a CSV row, null cells empty. */
  static <T> List<List<String>> cells(List<T> rows, Function<T, List<String>> cells) {
    return rows.stream().map(cells).toList();
  }

  /**
   * A cell a spreadsheet would read as a formula (=, +, -, @, tab, carriage return first) gets an
   * apostrophe in front: the cells hold customers' and clients' strings (keys, reasons).
   */
  static String defused(String cell) {
    if (cell == null || cell.isEmpty()) {
      return "";
    }
    char first = cell.charAt(0);
    return first == '='
            || first == '+'
            || first == '-'
            || first == '@'
            || first == '\t'
            || first == '\r'
        ? "'" + cell
        : cell;
  }

  private static String operatorOf(VaadinSession session) {
    if (session == null) {
      return null;
    }
    session.lock();
    try {
      OperatorSession operator = session.getAttribute(OperatorSession.class);
      return operator == null ? null : operator.userName();
    } finally {
      session.unlock();
    }
  }
}
