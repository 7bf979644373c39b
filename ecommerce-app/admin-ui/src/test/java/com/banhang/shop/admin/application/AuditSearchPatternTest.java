package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/**
 * The audit search's LIKE pattern. The search itself runs on H2 and PostgreSQL in the HTTP suite
 * (OperatorApiIT); SQL Server, where {@code [} opens a set of characters, cannot run here, so what
 * it is sent is checked here: the same statement and pattern as the other two.
 */
class AuditSearchPatternTest {

  @Test
  void wildcards_theOpeningBracket_andTheEscapeItself_areEscaped_nothingElse() {
    assertThat(AuditLog.escapeLike("[ab]%_\\z!")).isEqualTo("![ab]!%!_\\z!!");
    assertThat(AuditLog.escapeLike("plain text")).isEqualTo("plain text");
  }

  @Test
  void theStatementNamesTheEscape_andBindsTheEscapedText_forEverySearchedColumn() throws Exception {
    PreparedStatement count = mock(PreparedStatement.class);
    ResultSet one = mock(ResultSet.class);
    when(one.next()).thenReturn(true);
    when(one.getInt(1)).thenReturn(0);
    when(count.executeQuery()).thenReturn(one);
    Connection connection = mock(Connection.class);
    when(connection.prepareStatement(anyString())).thenReturn(count);
    AuditLog audit = new AuditLog();
    audit.dataSource = mock(DataSource.class);
    when(audit.dataSource.getConnection()).thenReturn(connection);

    audit.count("  [A]_1 ");

    ArgumentCaptor<String> sql = ArgumentCaptor.forClass(String.class);
    verify(connection).prepareStatement(sql.capture());
    assertThat(sql.getValue().split("LIKE \\? ESCAPE '!'", -1)).hasSize(9);
    verify(count, times(8)).setString(anyInt(), eq("%![a]!_1%"));
    verify(count, never()).setString(anyInt(), eq("%[a]_1%"));
  }
}
