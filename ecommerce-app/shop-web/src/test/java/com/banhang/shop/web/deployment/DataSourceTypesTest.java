package com.banhang.shop.web.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The production data sources of src/main/liberty/config/datasources are one-phase on every
 * database (docs/sqlserver.md, "One database, one-phase commit"). Without a type, Liberty prefers
 * the driver's XADataSource; on SQL Server every global transaction would then need MS DTC with XA
 * enabled and the SqlJDBCXAUser role, which a first deployment does not have (and Azure SQL
 * Database does not offer), so every request with a transaction would fail. Checked here because no
 * SQL Server runs where this project is built.
 */
class DataSourceTypesTest {

  private static final Path DATASOURCES =
      Path.of(System.getProperty("basedir", "."))
          .toAbsolutePath()
          .normalize()
          .getParent()
          .getParent()
          .resolve("src/main/liberty/config/datasources");

  @Test
  void everyDataSourceOfEveryDatabase_isDeclaredOnePhase_neverXa() throws Exception {
    List<String> seen = new ArrayList<>();
    try (Stream<Path> files = Files.list(DATASOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".xml")).sorted().toList()) {
        NodeList dataSources =
            DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(file.toFile())
                .getElementsByTagName("dataSource");
        for (int i = 0; i < dataSources.getLength(); i++) {
          Element dataSource = (Element) dataSources.item(i);
          String name = file.getFileName() + " " + dataSource.getAttribute("id");
          seen.add(name);
          assertThat(dataSource.getAttribute("type"))
              .as(name + ": type")
              .isEqualTo("javax.sql.ConnectionPoolDataSource");
          NodeList drivers = dataSource.getElementsByTagName("jdbcDriver");
          for (int d = 0; d < drivers.getLength(); d++) {
            assertThat(((Element) drivers.item(d)).getAttribute("javax.sql.XADataSource"))
                .as(name + ": no XA class named for the driver")
                .isEmpty();
          }
        }
      }
    }
    assertThat(seen)
        .contains(
            "sqlserver.xml shopDb",
            "postgresql.xml shopDb",
            "h2.xml shopDb",
            "sqlserver.xml shopMigrationsDb");
  }

  /**
   * PostgreSQL's servers are named by the URL alone (docs/deployment.md, "A PostgreSQL standby and
   * failover"): with type DataSource, Liberty lets serverName, portNumber and databaseName override
   * the URL's, and one serverName beside it would silently drop the standby from the list. By
   * default the URL names the one host and port, and the driver's own default targetServerType.
   */
  @Test
  void postgreSql_everyDataSourceNamesItsServersByTheUrlAlone_oneHostByDefault() throws Exception {
    Document config =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(DATASOURCES.resolve("postgresql.xml").toFile());
    NodeList properties = config.getElementsByTagName("properties.postgresql");
    assertThat(properties.getLength()).isEqualTo(3);
    for (int i = 0; i < properties.getLength(); i++) {
      Element driver = (Element) properties.item(i);
      assertThat(driver.getAttribute("URL"))
          .isEqualTo("jdbc:postgresql://${shop.postgresql.hosts}/${shop.postgresql.database}");
      assertThat(driver.getAttribute("targetServerType"))
          .isEqualTo("${shop.postgresql.target-server-type}");
      for (String overriding : List.of("serverName", "portNumber", "databaseName")) {
        assertThat(driver.hasAttribute(overriding)).as(overriding).isFalse();
      }
    }
    Map<String, String> defaults = new java.util.HashMap<>();
    NodeList variables = config.getElementsByTagName("variable");
    for (int i = 0; i < variables.getLength(); i++) {
      Element variable = (Element) variables.item(i);
      defaults.put(variable.getAttribute("name"), variable.getAttribute("defaultValue"));
    }
    assertThat(defaults)
        .containsEntry("shop.postgresql.hosts", "${shop.postgresql.host}:${shop.postgresql.port}")
        .containsEntry("shop.postgresql.target-server-type", "any")
        .containsEntry("shop.postgresql.host", "localhost")
        .containsEntry("shop.postgresql.port", "5432");
  }

  @Test
  void sqlServer_keepsSendingStringsAsUnicode() throws Exception {
    // tenant_id is nvarchar and may hold any text; sendStringParametersAsUnicode=false would send
    // it in the database's code page, and two tenants could arrive as one string.
    String config = Files.readString(DATASOURCES.resolve("sqlserver.xml"));
    assertThat(config.replaceAll("(?s)<!--.*?-->", ""))
        .doesNotContainIgnoringCase("sendStringParametersAsUnicode");
  }
}
