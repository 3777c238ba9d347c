/** A SQL string literal (single quotes doubled), for text a query cannot take as a parameter. Shared by pages and the command line. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
