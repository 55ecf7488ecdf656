export { checkImage, sniffImage, type CheckedImage, type ImageFormat } from './image-upload';
