// What other features may use of the SDK feature.
export { SdkDialog } from './SdkDialog';
export { SdkSteps } from './SdkSteps';
export { CodeBlock } from './CodeBlock';
export { useSdkSetup } from './hooks/useSdkSetup';
export { uploadDatasetSnippet, uploadPredictionsSnippet } from './sdkCommands';
