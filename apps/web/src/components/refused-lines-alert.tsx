import { Alert } from 'antd';

/** The lines an import refused, each as the API words it ("Line 3: ..."), under a title that counts them. */
export function RefusedLinesAlert(props: { title: string; messages: string[]; testId: string }) {
  return (
    <Alert
      type="error"
      showIcon
      data-testid={props.testId}
      title={props.title}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          {props.messages.map((m, i) => (
            <li key={i}>{m}</li>
          ))}
        </ul>
      }
    />
  );
}
