/** `@aplt/service-documents/numbering`: gap-free document numbers (the numbering benchmark). */
export { allocateNumber } from '../numbering/number.repository';
