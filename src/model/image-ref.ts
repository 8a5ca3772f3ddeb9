/** The `Image` GraphQL type's source object. */
export interface ImageRef {
  url: string;
  version: 'V1' | 'V2' | 'V6';
  placeholder: boolean | null;
}
