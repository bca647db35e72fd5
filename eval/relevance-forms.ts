export function crossValidate(): string {
  return '';
}
