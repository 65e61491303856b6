// What other features may use of the SDK feature.
export { SdkDialog } from './SdkDialog';
export { SdkSteps } from './SdkSteps';
export { CodeBlock } from './CodeBlock';
export { useSdkSetup } from './hooks/useSdkSetup';
export { SdkDocsLink } from './SdkDocs';
export { UploadSnippet } from './UploadSnippet';
export { uploadDatasetSnippet, uploadPredictionsSnippet } from './sdkSnippets';
